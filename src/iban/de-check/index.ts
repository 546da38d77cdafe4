/**
 * The German account check: the account number inside a DE IBAN (BBAN positions 9-18) judged
 * by the check-digit method the Bundesbank assigns to its bank. The method is passed in: the
 * engine knows the methods, not which bank uses which.
 */
import { DE_METHODS } from './methods.ts';

export { DE_METHODS, type AccountCheck } from './methods.ts';

/**
 * `passed` / `failed`: the bank's method judged the account; `not_checked`: the method checks
 * nothing (09); `not_implemented`: mod97 does not implement the bank's method yet;
 * `unknown_bank`: no loaded source names the bank's method. Only `failed` makes an IBAN invalid.
 */
export type GermanCheck = 'passed' | 'failed' | 'not_checked' | 'not_implemented' | 'unknown_bank';

/** Resolves a BLZ to its Bundesbank method code ("00" ... "E4"), or null when unknown. */
export type GermanMethodOf = (blz: string) => string | null;

/** Judges the 10-digit account of a German IBAN already known to be 22 digits after "DE". */
export function checkGermanAccount(iban: string, method: string | null): GermanCheck {
  if (method === null) return 'unknown_bank';
  if (method === '09') return 'not_checked';
  const check = DE_METHODS[method];
  if (check === undefined) return 'not_implemented';
  return check(iban.slice(12, 22)) ? 'passed' : 'failed';
}
