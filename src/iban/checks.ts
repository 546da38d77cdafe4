/**
 * The strict checks on an IBAN already known to be upper-case alphanumeric, of a known
 * country and of that country's length. Allocation only happens when something fails.
 */
import { ERRORS, type IbanError } from './errors.ts';
import { ibanRemainder } from './mod97.ts';
import type { CountrySpec } from './registry.ts';
import { isQrIid, SWISS_IID_COUNTRIES } from './swiss.ts';

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** True if every character is A-Z or 0-9. */
export function isUpperAlnum(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || (c > 57 && c < 65) || c > 90) return false;
  }
  return true;
}

/**
 * Where the BBAN breaks the country's per-position classes: -1 nowhere, the IBAN index
 * of the one offending character, or -2 when there are several.
 */
export function structureFault(iban: string, spec: CountrySpec): number {
  const classes = spec.classes;
  let fault = -1;
  for (let i = 0; i < classes.length; i++) {
    // The IBAN is known to be A-Z0-9: a digit needs bit 1 (ACCEPTS_DIGIT), a letter bit 2.
    if ((classes[i] & (iban.charCodeAt(i + 4) < 65 ? 1 : 2)) === 0) {
      if (fault !== -1) return -2;
      fault = i + 4;
    }
  }
  return fault;
}

const matchesStructure = (iban: string, spec: CountrySpec): boolean => structureFault(iban, spec) === -1;

/** Check digits are two digits from 02 to 98. */
function checkDigitsInRange(iban: string): boolean {
  const c2 = iban.charCodeAt(2);
  const c3 = iban.charCodeAt(3);
  const cd = (c2 - 48) * 10 + (c3 - 48);
  return isDigit(c2) && isDigit(c3) && cd >= 2 && cd <= 98;
}

/** The errors of a correctly sized IBAN of `spec`'s country, or null when it is valid. */
export function collectErrors(iban: string, spec: CountrySpec): IbanError[] | null {
  let errors: IbanError[] | null = null;
  if (!checkDigitsInRange(iban)) (errors ??= []).push(ERRORS.invalid_check_digits);
  const digitsOk = isDigit(iban.charCodeAt(2)) && isDigit(iban.charCodeAt(3));
  const structureOk = matchesStructure(iban, spec);
  if (!structureOk) (errors ??= []).push(ERRORS.invalid_structure);
  if (digitsOk && ibanRemainder(iban) !== 1) (errors ??= []).push(ERRORS.checksum_failed);
  const national = spec.national;
  if (structureOk && national !== null && !national.check(iban)) (errors ??= []).push(ERRORS[national.code]);
  return errors;
}

/**
 * For an IBAN whose mod 97 is already known to pass (a suggestion candidate): the same
 * verdict as `collectErrors(...) === null`, without computing mod 97 again or allocating.
 * `structureKnown` skips the structure scan when the caller knows the structure holds.
 */
export function passesBesidesMod97(iban: string, spec: CountrySpec, structureKnown: boolean): boolean {
  return (
    checkDigitsInRange(iban) &&
    (structureKnown || matchesStructure(iban, spec)) &&
    (spec.national === null || spec.national.check(iban))
  );
}

/** Swiss and Liechtenstein QR-IBANs carry a QR-IID (IBAN positions 5-9). */
export function isQrIban(iban: string, spec: CountrySpec): boolean {
  if (!SWISS_IID_COUNTRIES.has(spec.code)) return false;
  for (let i = 4; i < 9; i++) if (!isDigit(iban.charCodeAt(i))) return false;
  return isQrIid(Number(iban.slice(4, 9)));
}
