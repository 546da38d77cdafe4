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

/**
 * Resolves a BLZ, given as its 8-digit number, to its Bundesbank method code ("00" ... "E4"),
 * or null when unknown. A number rather than a string: validation reads it from the IBAN
 * without cutting a string out, and a lookup by small integer costs no string hashing.
 */
export type GermanMethodOf = (blz: number) => string | null;

/** The BLZ (IBAN positions 5-12) of a German IBAN known to be all digits there, as a number. */
export function blzNumberOf(iban: string): number {
  let n = 0;
  for (let i = 4; i < 12; i++) n = n * 10 + iban.charCodeAt(i) - 48;
  return n;
}

/**
 * A GermanMethodOf over a lookup by BLZ string (such as the data plane's), remembering the
 * banks it found: there are a few thousand, while unknown codes are as many as callers send,
 * so those are looked up each time rather than remembered.
 */
export function germanMethodLookup(byBlz: (blz: string) => string | null): GermanMethodOf {
  const known = new Map<number, string>();
  return (blz) => {
    const hit = known.get(blz);
    if (hit !== undefined) return hit;
    const method = byBlz(String(blz).padStart(8, '0'));
    if (method !== null) known.set(blz, method);
    return method;
  };
}

/** A Map, not the object: codes such as "10" would be read as array indexes there. */
const BY_CODE = new Map(Object.entries(DE_METHODS));

/**
 * Judges the account of a German IBAN already known to be 22 characters of digits after "DE"
 * (the methods read the account as the IBAN's last 10 characters).
 */
export function checkGermanAccount(iban: string, method: string | null): GermanCheck {
  if (method === null) return 'unknown_bank';
  if (method === '09') return 'not_checked';
  const check = BY_CODE.get(method);
  if (check === undefined) return 'not_implemented';
  return check(iban) ? 'passed' : 'failed';
}
