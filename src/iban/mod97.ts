/**
 * ISO 7064 mod 97-10 on strings of upper-case letters and digits, letters counting as
 * 10..35. The running value is kept below 2^31 so V8 stays on small-integer arithmetic:
 * it is only reduced once it passes REDUCE_AT, i.e. every few characters, not every one.
 */
const REDUCE_AT = 20_000_000;

/** Folds s[start..end) into the running value `acc` (not yet reduced mod 97). */
export function foldMod97(s: string, start: number, end: number, acc: number): number {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    acc = c < 65 ? acc * 10 + (c - 48) : acc * 100 + (c - 55);
    if (acc >= REDUCE_AT) acc %= 97;
  }
  return acc;
}

/** Remainder of the IBAN's rearranged form (BBAN first, then country and check digits). */
export function ibanRemainder(iban: string): number {
  return foldMod97(iban, 0, 4, foldMod97(iban, 4, iban.length, 0)) % 97;
}

/** Check digits that make `countryCode + cd + bban` pass mod 97. */
export function computeCheckDigits(countryCode: string, bban: string): string {
  const cd = 98 - (foldMod97(`${countryCode}00`, 0, 4, foldMod97(bban, 0, bban.length, 0)) % 97);
  return cd < 10 ? `0${cd}` : String(cd);
}
