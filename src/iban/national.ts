/**
 * National check digits inside the BBAN. Each function gets the whole electronic IBAN,
 * already known to have the right length and structure (so numeric positions hold
 * digits), and reads BBAN position p at index 4 + p. Checks were verified against the
 * registry examples and published real IBANs; a check is left out rather than guessed.
 */
import type { IbanErrorCode } from './errors.ts';
import { foldMod97 } from './mod97.ts';

type Check = (iban: string) => boolean;

const B = 4;
const digit = (iban: string, p: number): number => iban.charCodeAt(B + p) - 48;

/** Sum of BBAN digits [start, start + weights.length) times the weights. */
function weighted(iban: string, start: number, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += digit(iban, start + i) * weights[i];
  return sum;
}

const W9731 = [9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3, 1];
const W9731_8 = W9731.slice(0, 8);
const NO_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
const CZ_PREFIX_WEIGHTS = [10, 5, 8, 4, 2, 1];
const CZ_NUMBER_WEIGHTS = [6, 3, 7, 9, 10, 5, 8, 4, 2, 1];
const IS_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2];

/** BBAN mod 97 (letters as in IBANs) equals `want`: 1 for ISO 7064 mod 97-10, 0 for RIB-style keys. */
const bbanMod97 =
  (want: number): Check =>
  (iban) =>
    foldMod97(iban, B, iban.length, 0) % 97 === want;

/** French RIB: the 11-character account may hold letters, which count as A,J=1 B,K,S=2 ... I,R,Z=9. */
const RIB_LETTER = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9];
const frenchRib: Check = (iban) => {
  let r = 0;
  for (let i = B; i < iban.length; i++) {
    const c = iban.charCodeAt(i);
    r = (r * 10 + (c < 65 ? c - 48 : RIB_LETTER[c - 65])) % 97;
  }
  return r === 0;
};

/** Italian and San Marino CIN: a letter computed from the 22 characters after it. */
const CIN_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const italianCin: Check = (iban) => {
  let sum = 0;
  for (let i = 1; i < 23; i++) {
    const c = iban.charCodeAt(B + i);
    const v = c < 65 ? c - 48 : c - 65; // digits and letters share the same table index
    sum += i % 2 === 1 ? CIN_ODD[v] : v;
  }
  return iban.charCodeAt(B) - 65 === sum % 26;
};

/** Spanish DC: one mod 11 digit over bank + branch, one over the 10-digit account. */
const ES_WEIGHTS = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
/** Bank + branch are weighted as if preceded by 00, i.e. from the third weight on. */
const ES_BANK_WEIGHTS = ES_WEIGHTS.slice(2);
const esDigit = (sum: number): number => {
  const d = 11 - (sum % 11);
  return d === 11 ? 0 : d === 10 ? 1 : d;
};
const spanishDc: Check = (iban) =>
  esDigit(weighted(iban, 0, ES_BANK_WEIGHTS)) === digit(iban, 8) &&
  esDigit(weighted(iban, 10, ES_WEIGHTS)) === digit(iban, 9);

/** Belgian: the first 10 digits mod 97 (0 read as 97) are the last two. */
const belgian: Check = (iban) => {
  const r = foldMod97(iban, B, B + 10, 0) % 97;
  return (r === 0 ? 97 : r) === digit(iban, 10) * 10 + digit(iban, 11);
};

/** Mod 11 check digit written as 11 - remainder, remainder 0 giving 0 and 1 being impossible. */
const mod11Digit = (sum: number): number => {
  const r = sum % 11;
  return r === 0 ? 0 : 11 - r;
};

/**
 * Norwegian mod 11 over the 11 digits. Accounts whose 5th and 6th digits are 00 follow
 * older, bank-specific rules, so they are not judged.
 */
const norwegian: Check = (iban) =>
  (digit(iban, 4) === 0 && digit(iban, 5) === 0) || mod11Digit(weighted(iban, 0, NO_WEIGHTS)) === digit(iban, 10);

/** Finnish: Luhn over the 14-digit machine form. */
const finnish: Check = (iban) => {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = digit(iban, 13 - i);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};

const W731 = [7, 3, 1];

/** Estonian 7-3-1: weights from the right over the account (BBAN 2..14), check digit last. */
const estonian: Check = (iban) => {
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += digit(iban, 14 - i) * W731[i % 3];
  return (10 - (sum % 10)) % 10 === digit(iban, 15);
};

/** Czech and Slovak: prefix (6 digits) and number (10 digits) are each 0 mod 11. */
const czechSlovak: Check = (iban) =>
  weighted(iban, 4, CZ_PREFIX_WEIGHTS) % 11 === 0 && weighted(iban, 10, CZ_NUMBER_WEIGHTS) % 11 === 0;

/** Hungarian: 9-7-3-1 over bank + branch + check, and over the account + check (8 and 16 digits). */
const hungarian: Check = (iban) => weighted(iban, 0, W9731_8) % 10 === 0 && weighted(iban, 8, W9731) % 10 === 0;

/** Albanian: 9-7-3-1 over bank + branch + check digit (BBAN 0..7). */
const albanian: Check = (iban) => weighted(iban, 0, W9731_8) % 10 === 0;

/** Icelandic kennitala (last 10 BBAN digits): 9th digit is the mod 11 check of the first 8. */
const icelandic: Check = (iban) => mod11Digit(weighted(iban, 12, IS_WEIGHTS)) === digit(iban, 20);

export interface NationalCheck {
  code: IbanErrorCode;
  check: Check;
}

export const NATIONAL_CHECKS: Readonly<Record<string, NationalCheck>> = {
  AL: { code: 'al_check_failed', check: albanian },
  BA: { code: 'ba_check_failed', check: bbanMod97(1) },
  BE: { code: 'be_check_failed', check: belgian },
  CZ: { code: 'cz_check_failed', check: czechSlovak },
  EE: { code: 'ee_check_failed', check: estonian },
  ES: { code: 'es_dc_failed', check: spanishDc },
  FI: { code: 'fi_check_failed', check: finnish },
  FR: { code: 'fr_rib_key_failed', check: frenchRib },
  HU: { code: 'hu_check_failed', check: hungarian },
  IS: { code: 'is_kennitala_failed', check: icelandic },
  IT: { code: 'it_cin_failed', check: italianCin },
  MC: { code: 'mc_rib_key_failed', check: frenchRib },
  ME: { code: 'me_check_failed', check: bbanMod97(1) },
  MK: { code: 'mk_check_failed', check: bbanMod97(1) },
  MR: { code: 'mr_rib_key_failed', check: bbanMod97(0) },
  NO: { code: 'no_check_failed', check: norwegian },
  PT: { code: 'pt_nib_check_failed', check: bbanMod97(1) },
  RS: { code: 'rs_check_failed', check: bbanMod97(1) },
  SI: { code: 'si_check_failed', check: bbanMod97(1) },
  SK: { code: 'sk_check_failed', check: czechSlovak },
  SM: { code: 'sm_cin_failed', check: italianCin },
  TN: { code: 'tn_rib_key_failed', check: bbanMod97(0) },
};
