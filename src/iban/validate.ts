/**
 * validateIban: normalise, then judge the IBAN strictly, in this order: empty, characters,
 * country, length, then check digits, BBAN structure, mod 97 and the national check
 * (these last four are all reported together). Never throws: any input gives a result.
 */
import { collectErrors, isQrIban, isUpperAlnum } from './checks.ts';
import { blzNumberOf, checkGermanAccount, type GermanCheck, type GermanMethodOf } from './de-check/index.ts';
import { ERRORS, type IbanError, lengthError } from './errors.ts';
import { normalizeIban } from './normalize.ts';
import { countryOf, type CountrySpec, type Range } from './registry.ts';
import { MAX_SUGGESTIONS, suggest } from './suggest.ts';
import { territoryVerdict } from './territory.ts';

export interface ValidateOptions {
  /**
   * The Bundesbank check-digit method of a German bank code: with it, the account number of a
   * DE IBAN is judged too (`national_check`, `de_check_failed`).
   */
  germanMethodOf?: GermanMethodOf;
}

export interface IbanResult {
  /** The electronic form that was checked (after normalisation). */
  iban: string;
  /** Groups of 4 separated by spaces. */
  formatted: string;
  valid: boolean;
  /** null if the country is unknown. */
  country: { code: string; name: string } | null;
  check_digits: string | null;
  /** null unless the country is known and the length is right. */
  bban: { bank_code: string | null; branch_code: string | null; account_number: string | null } | null;
  /** CH and LI IBANs whose IID (positions 5-9) is 30000-31999. */
  qr_iban: boolean;
  /** Empty when valid. */
  errors: IbanError[];
  /** Up to 3 valid IBANs one edit away, only when invalid. */
  suggestions: string[];
  /** DE IBANs of the right length and structure only: how the bank's account check went. */
  national_check?: GermanCheck;
}

function format(iban: string): string {
  if (iban.length <= 4) return iban;
  let out = iban.slice(0, 4);
  for (let i = 4; i < iban.length; i += 4) out += ` ${iban.slice(i, i + 4)}`;
  return out;
}

const part = (iban: string, range: Range | null): string | null =>
  range === null ? null : iban.slice(range.start + 4, range.end + 4);

// Shared rather than allocated per call: a batch builds thousands of results, and the garbage
// collector is what a busy batch route spends its time on.
const NONE: never[] = [];
Object.freeze(NONE);
const countryRefs = new Map<string, IbanResult['country']>();
const countryOfSpec = (spec: CountrySpec): IbanResult['country'] => {
  let ref = countryRefs.get(spec.code);
  if (!ref) countryRefs.set(spec.code, (ref = Object.freeze({ code: spec.code, name: spec.name })));
  return ref;
};

function result(
  iban: string,
  spec: CountrySpec | undefined,
  errors: IbanError[],
  sized: boolean,
  suggestions: string[],
): IbanResult {
  let bban: IbanResult['bban'] = null;
  if (sized && spec !== undefined) {
    bban = {
      bank_code: part(iban, spec.bank),
      branch_code: part(iban, spec.branch),
      account_number: part(iban, spec.account),
    };
  }
  return {
    iban,
    formatted: format(iban),
    valid: errors.length === 0,
    country: spec === undefined ? null : countryOfSpec(spec),
    check_digits: iban.length >= 4 ? iban.slice(2, 4) : null,
    bban,
    qr_iban: sized && spec !== undefined && isQrIban(iban, spec),
    errors,
    suggestions,
  };
}

/** The German check of a DE IBAN whose length and structure hold, or undefined for any other IBAN. */
function germanCheckOf(
  iban: string,
  spec: CountrySpec,
  errors: IbanError[] | null,
  methodOf: GermanMethodOf | undefined,
): GermanCheck | undefined {
  if (spec.code !== 'DE' || errors?.includes(ERRORS.invalid_structure)) return undefined;
  return checkGermanAccount(iban, methodOf ? methodOf(blzNumberOf(iban)) : null);
}

function judge(iban: string, methodOf: GermanMethodOf | undefined): IbanResult {
  if (iban.length === 0) return result(iban, undefined, [ERRORS.empty], false, NONE);
  if (!isUpperAlnum(iban)) return result(iban, countryOf(iban), [ERRORS.invalid_characters], false, NONE);
  const spec = countryOf(iban);
  if (spec === undefined) {
    const territory = territoryVerdict(iban);
    if (territory)
      return result(iban, undefined, [territory.error], false, territory.suggestion ? [territory.suggestion] : NONE);
    return result(iban, undefined, [ERRORS.unknown_country], false, countryCodeSlips(iban, methodOf));
  }
  if (iban.length !== spec.length) return result(iban, spec, [lengthError(spec.length, iban.length)], false, NONE);
  const errors = collectErrors(iban, spec);
  const german = germanCheckOf(iban, spec, errors, methodOf);
  let answer: IbanResult;
  if (german === 'failed') {
    // When mod 97 holds, no single substitution or adjacent swap in an all-digit BBAN keeps it
    // (each changes the number by d × 10^k or 9d × 10^k with 0 < |d| <= 9, never a multiple
    // of 97), so an IBAN whose only fault is the account check has no suggestion to look for.
    answer =
      errors === null
        ? result(iban, spec, [ERRORS.de_check_failed], true, NONE)
        : result(iban, spec, [...errors, ERRORS.de_check_failed], true, suggestFor(iban, spec, methodOf));
  } else {
    answer =
      errors === null
        ? result(iban, spec, NONE, true, NONE)
        : result(iban, spec, errors, true, suggestFor(iban, spec, methodOf));
  }
  if (german !== undefined) answer.national_check = german;
  return answer;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * For an IBAN whose country code names no country (`DF89…`, `ED89…`, `D8E9…`): the valid IBANs
 * one slip away in its first four characters, swaps first (two neighbours exchanged), then a
 * letter of the code replaced; at most MAX_SUGGESTIONS. The rest of the IBAN must then hold as
 * it is, so a slip elsewhere as well gives nothing.
 */
function countryCodeSlips(iban: string, methodOf: GermanMethodOf | undefined): string[] {
  const swap = (i: number) => iban.slice(0, i) + iban[i + 1] + iban[i] + iban.slice(i + 2);
  const candidates = [swap(0), swap(1), swap(2)];
  for (const i of [0, 1]) for (const letter of LETTERS) candidates.push(iban.slice(0, i) + letter + iban.slice(i + 1));
  const found = new Set<string>();
  for (const candidate of candidates) {
    if (found.size === MAX_SUGGESTIONS) break;
    if (candidate !== iban && holds(candidate, methodOf)) found.add(candidate);
  }
  return [...found];
}

/** Whether an IBAN is valid, judged as `judge` does but without the suggestions an invalid one is searched for. */
function holds(iban: string, methodOf: GermanMethodOf | undefined): boolean {
  const spec = countryOf(iban);
  if (spec === undefined || iban.length !== spec.length || collectErrors(iban, spec) !== null) return false;
  return germanCheckOf(iban, spec, null, methodOf) !== 'failed';
}

/** Suggestions; a German one must also pass its own bank's account check. */
function suggestFor(iban: string, spec: CountrySpec, methodOf: GermanMethodOf | undefined): string[] {
  if (spec.code !== 'DE' || methodOf === undefined) return suggest(iban, spec);
  return suggest(iban, spec, (s) => checkGermanAccount(s, methodOf(blzNumberOf(s))) !== 'failed');
}

/** Validates one IBAN as typed or pasted. A non-string input is judged as empty. */
export function validateIban(input: string, options?: ValidateOptions): IbanResult {
  const methodOf = options?.germanMethodOf;
  if (typeof input !== 'string') return judge('', methodOf);
  return judge(normalizeIban(input), methodOf);
}
