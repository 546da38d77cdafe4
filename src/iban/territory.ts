/**
 * Territories that use their parent country's IBANs: an IBAN written with the territory's own
 * code (GP..., JE...) is refused with `territory_code`, and the parent-code IBAN with the same
 * BBAN is suggested when that IBAN is valid.
 */
import { collectErrors } from './checks.ts';
import type { IbanError } from './errors.ts';
import { computeCheckDigits } from './mod97.ts';
import { COUNTRIES, type CountrySpec } from './registry.ts';

const PARENTS: Readonly<Record<string, 'FR' | 'FI' | 'GB'>> = {
  AX: 'FI',
  GF: 'FR',
  GP: 'FR',
  MQ: 'FR',
  RE: 'FR',
  PF: 'FR',
  TF: 'FR',
  YT: 'FR',
  NC: 'FR',
  BL: 'FR',
  MF: 'FR',
  PM: 'FR',
  WF: 'FR',
  IM: 'GB',
  JE: 'GB',
  GG: 'GB',
};

/**
 * One frozen error per territory, built on the first IBAN written with a territory's code: the
 * country names come from ICU (Intl.DisplayNames), whose first use loads its locale data, about
 * 10 ms that a start and most validations never need.
 */
let territoryErrors: Readonly<Record<string, IbanError>> | null = null;

function territoryError(code: string): IbanError | undefined {
  if (!Object.hasOwn(PARENTS, code)) return undefined;
  territoryErrors ??= buildTerritoryErrors();
  return territoryErrors[code];
}

function buildTerritoryErrors(): Readonly<Record<string, IbanError>> {
  const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  return Object.freeze(
    Object.fromEntries(
      Object.entries(PARENTS).map(([code, parent]) => [
        code,
        Object.freeze({
          code: 'territory_code',
          parent,
          message: `${code} is not an IBAN country code: IBANs of ${regionNames.of(code)} are issued under ${parent} (${regionNames.of(parent)}).`,
        } satisfies IbanError),
      ]),
    ),
  );
}

interface TerritoryVerdict {
  error: IbanError;
  /** The parent-code IBAN with the same BBAN, when it is valid; else null. */
  suggestion: string | null;
}

/** The verdict for an upper-case alphanumeric IBAN whose first two letters are a territory, else null. */
export function territoryVerdict(iban: string): TerritoryVerdict | null {
  const code = iban.slice(0, 2);
  const error = territoryError(code);
  if (error === undefined) return null;
  const parent: CountrySpec = COUNTRIES[PARENTS[code]];
  if (iban.length !== parent.length) return { error, suggestion: null };
  const bban = iban.slice(4);
  const candidate = parent.code + computeCheckDigits(parent.code, bban) + bban;
  return { error, suggestion: collectErrors(candidate, parent) === null ? candidate : null };
}
