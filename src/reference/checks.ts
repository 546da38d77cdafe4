/**
 * The check-digit algorithms of the six reference types (docs/api.md, "Payment references").
 * Each takes the digits (or, for RF, the letters and digits) the check is computed over and
 * answers the check characters, so that validating is computing and comparing, and creating is
 * computing and appending: one function per algorithm serves both.
 */

/** ISO 7064 mod 97-10 of upper-case letters and digits, letters counting as 10..35. */
export function mod97(s: string): number {
  let acc = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    acc = c < 65 ? acc * 10 + (c - 48) : acc * 100 + (c - 55);
    if (acc >= 10_000_000) acc %= 97;
  }
  return acc % 97;
}

/** ISO 11649: the two check digits of `RF` + check + `body` (98 minus the remainder of body + "RF00"). */
export function rfCheckDigits(body: string): string {
  const cd = 98 - mod97(`${body}RF00`);
  return cd < 10 ? `0${cd}` : String(cd);
}

/** The RF reference's check digits are ones ISO 11649 makes, 02 to 98 (the remainder alone also takes 00, 01, 99). */
export function rfCheckDigitsInRange(reference: string): boolean {
  const cd = Number(reference.slice(2, 4));
  return cd >= 2 && cd <= 98;
}

/** The RF reference holds: check digits 02-98 and mod 97 of body + "RF" + check equal to 1. */
export function rfHolds(reference: string): boolean {
  return rfCheckDigitsInRange(reference) && mod97(reference.slice(4) + reference.slice(0, 4)) === 1;
}

/** Recursive mod 10 (SIX, QR-bill and the former ISR): the carry through this table, then 10 minus it. */
const MOD10_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
export function recursiveMod10(digits: string): string {
  let carry = 0;
  for (let i = 0; i < digits.length; i++) carry = MOD10_TABLE[(carry + digits.charCodeAt(i) - 48) % 10] ?? 0;
  return String((10 - carry) % 10);
}

/** Belgian structured communication: the first ten digits mod 97, and 97 where that is 0. */
export function belgianCheck(digits: string): string {
  const r = mod97(digits) || 97;
  return r < 10 ? `0${r}` : String(r);
}

/** Finnish reference: weights 7, 3, 1 repeated from the rightmost digit; the check completes the sum to a ten. */
export function finnishCheck(digits: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = digits.length - 1, w = 0; i >= 0; i--, w++) sum += (digits.charCodeAt(i) - 48) * (weights[w % 3] ?? 0);
  return String((10 - (sum % 10)) % 10);
}

/** Luhn (mod 10): doubling every second digit from the rightmost one. */
export function luhnCheck(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Mod 11 with weights 2..7 repeated from the rightmost digit: 11 - remainder, 11 as 0 and 10 as `-`. */
export function mod11Check(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, w = 0; i >= 0; i--, w++) sum += (digits.charCodeAt(i) - 48) * (2 + (w % 6));
  const check = 11 - (sum % 11);
  return check === 11 ? '0' : check === 10 ? '-' : String(check);
}
