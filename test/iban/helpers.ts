import { computeCheckDigits } from '../../src/iban/index.ts';

/** The IBAN with the digit at `index` moved by one (9 wraps to 0) and its IBAN check digits recomputed. */
export function oneDigitOff(iban: string, index: number): string {
  const digit = Number(iban[index]);
  if (Number.isNaN(digit)) throw new Error(`position ${index} of ${iban} is not a digit`);
  const bban = iban.slice(4, index) + ((digit + 1) % 10) + iban.slice(index + 1);
  return withCheckDigits(iban.slice(0, 2), bban);
}

/** country + correct check digits + bban. */
export function withCheckDigits(country: string, bban: string): string {
  return country + computeCheckDigits(country, bban) + bban;
}

/** The IBAN with the characters at index and index + 1 swapped. */
export function transpose(iban: string, index: number): string {
  return iban.slice(0, index) + iban[index + 1] + iban[index] + iban.slice(index + 2);
}
