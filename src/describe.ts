/**
 * The validate answer: the pure engine's verdict, enriched with what the loaded data knows
 * (bank, SEPA reach, Swiss clearing) and the version of that data.
 */
import type { ClearingSummary } from './data/answers.ts';
import type { DataPlane, LiveDataPlane } from './data/index.ts';
import { germanMethodLookup, type IbanResult, type ValidateOptions, validateIban } from './iban/index.ts';
import { SWISS_IID_COUNTRIES } from './iban/swiss.ts';

/** Whether a BIC sent with the IBAN belongs to the IBAN's bank, by the loaded directories. */
export interface BicCheck {
  bic: string;
  /** The first 8 characters equal those of a BIC a source gives for the bank; null when no source knows the bank. */
  matches: boolean | null;
  /** Every BIC11 the sources give for the IBAN's bank. */
  expected: string[];
}

export type Described = IbanResult & {
  bank: ReturnType<DataPlane['bankForIban']>;
  sepa: ReturnType<DataPlane['sepa']> | null;
  clearing?: ClearingSummary | null;
  bic_check?: BicCheck;
  data_version: string;
};
/** `bic`, when given, must already be a well-formed BIC (8 or 11 characters, upper case). */
export type Describe = (iban: string, bic?: string) => Described;

/** Each IBAN is described from one load of the data, taken once: a reload between two lookups cannot mix them. */
export function createDescribe(source: DataPlane | LiveDataPlane): Describe {
  const current = 'snapshot' in source ? () => source.snapshot() : () => source;
  // The German check methods are read through a memo made once per load of the data.
  let plane: DataPlane | null = null;
  let options: ValidateOptions = {};
  return (input, bic) => {
    const data = current();
    if (data !== plane) {
      plane = data;
      options = { germanMethodOf: germanMethodLookup((blz) => data.germanCheckMethod(blz)) };
    }
    const r = validateIban(input, options);
    const country = r.country?.code;
    // An IBAN that fails validation names no bank reliably: only valid ones are looked up.
    const bankCode = r.valid ? (r.bban?.bank_code ?? null) : null;
    const bank = country && bankCode ? data.bankForIban(country, bankCode, r.bban?.branch_code) : null;
    const swiss = country !== undefined && SWISS_IID_COUNTRIES.has(country);
    // Every answer has the same fields, the optional ones undefined when absent, in the order
    // the response schema's serialiser writes them (the required ones first): one object shape
    // for the JIT, and JSON.stringify writes the same text (the batch route relies on it).
    const described: Described = {
      iban: r.iban,
      formatted: r.formatted,
      valid: r.valid,
      country: r.country,
      check_digits: r.check_digits,
      bban: r.bban,
      qr_iban: r.qr_iban,
      errors: r.errors,
      suggestions: r.suggestions,
      bank,
      sepa: country ? data.sepa(country, bank?.bic ?? undefined) : null,
      data_version: data.dataVersion(),
      clearing: swiss ? (bankCode ? data.clearingSummary(bankCode) : null) : undefined,
      national_check: r.national_check,
      bic_check: bic === undefined ? undefined : bicCheck(data, bic, country, bankCode, r.bban?.branch_code),
    };
    return described;
  };
}

/** Only a valid IBAN names its bank reliably: for any other, no bank is known and `matches` is null. */
function bicCheck(
  data: DataPlane,
  bic: string,
  country: string | undefined,
  bankCode: string | null,
  branchCode: string | null | undefined,
): BicCheck {
  const expected = country && bankCode ? data.bicsForBank(country, bankCode, branchCode) : [];
  if (expected.length === 0) return { bic, matches: null, expected };
  const bic8 = bic.slice(0, 8);
  return { bic, matches: expected.some((e) => e.startsWith(bic8)), expected };
}
