/** Every error code validateIban can return, with the message it carries. */
export const ERROR_CODES = {
  empty: 'No IBAN was given.',
  invalid_characters: 'The IBAN contains characters other than letters, digits and separators.',
  unknown_country: 'The IBAN does not start with the code of a country that uses IBANs.',
  territory_code:
    "The IBAN starts with the code of a territory whose IBANs are issued under another country's code (see `parent`).",
  invalid_length: 'The IBAN does not have the length the registry fixes for its country.',
  invalid_check_digits: 'The IBAN check digits (positions 3-4) must be two digits from 02 to 98.',
  invalid_structure: "The account part (BBAN) does not match the country's format of digits and letters.",
  checksum_failed: 'The IBAN check digits do not match (ISO 7064 mod 97-10): probably a typing error.',
  al_check_failed: 'The Albanian bank and branch check digit does not match.',
  ba_check_failed: 'The Bosnian account check digits (mod 97) do not match.',
  be_check_failed: 'The Belgian account check digits (mod 97) do not match.',
  cz_check_failed: 'The Czech account number fails its mod 11 check.',
  de_check_failed: "The German account number fails its bank's Bundesbank check-digit method.",
  ee_check_failed: 'The Estonian account check digit (7-3-1) does not match.',
  es_dc_failed: 'The Spanish control digits (DC) do not match.',
  fi_check_failed: 'The Finnish account check digit (Luhn) does not match.',
  fr_rib_key_failed: 'The French RIB key does not match.',
  hu_check_failed: 'The Hungarian account check digits do not match.',
  is_kennitala_failed: 'The Icelandic holder ID (kennitala) in the IBAN fails its check.',
  it_cin_failed: 'The Italian CIN check letter does not match.',
  mc_rib_key_failed: 'The Monegasque RIB key does not match.',
  me_check_failed: 'The Montenegrin account check digits (mod 97) do not match.',
  mk_check_failed: 'The North Macedonian account check digits (mod 97) do not match.',
  mr_rib_key_failed: 'The Mauritanian RIB key does not match.',
  no_check_failed: 'The Norwegian account check digit (mod 11) does not match.',
  pt_nib_check_failed: 'The Portuguese NIB check digits do not match.',
  rs_check_failed: 'The Serbian account check digits (mod 97) do not match.',
  si_check_failed: 'The Slovenian account check digits (mod 97) do not match.',
  sk_check_failed: 'The Slovak account number fails its mod 11 check.',
  sm_cin_failed: 'The San Marino CIN check letter does not match.',
  tn_rib_key_failed: 'The Tunisian RIB key does not match.',
} as const satisfies Record<string, string>;

export type IbanErrorCode = keyof typeof ERROR_CODES;

export interface IbanError {
  code: IbanErrorCode;
  message: string;
  /** territory_code only: the country code the registry issues the territory's IBANs under. */
  parent?: string;
  /** invalid_length only: the length the registry fixes for the country. */
  expected_length?: number;
  /** invalid_length only: the length of the IBAN given (electronic form). */
  length?: number;
}

/** invalid_length with the two lengths, so a caller sees how far off the IBAN is. */
export const lengthError = (expected: number, given: number): IbanError => ({
  ...ERRORS.invalid_length,
  expected_length: expected,
  length: given,
});

type ErrorTable = Record<IbanErrorCode, IbanError>;

const isErrorCode = (code: string): code is IbanErrorCode => code in ERROR_CODES;

/** Whether the table holds an error for every code, as errorTable builds it to. */
const hasEveryCode = (table: Partial<ErrorTable>): table is ErrorTable =>
  Object.keys(ERROR_CODES).every((code) => code in table);

function errorTable(): Readonly<ErrorTable> {
  const table: Partial<ErrorTable> = {};
  for (const code of Object.keys(ERROR_CODES).filter(isErrorCode)) {
    table[code] = Object.freeze({ code, message: ERROR_CODES[code] });
  }
  if (!hasEveryCode(table)) throw new Error('an IBAN error code has no error');
  return Object.freeze(table);
}

/** One frozen object per code, so a result's errors cost no allocation beyond the array. */
export const ERRORS: Readonly<ErrorTable> = errorTable();
