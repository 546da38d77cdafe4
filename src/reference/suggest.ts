/**
 * Suggestions for an RF or Belgian reference whose check fails (docs/api.md, "POST
 * /v1/reference/validate"): the references one substitution or one swap of neighbours away whose
 * check holds, by the position of the change, leftmost first (so a mistyped RF check digit comes
 * first), at most 5.
 *
 * An RF reference's edits are not tried one by one: from the mod 97 remainders of the parts
 * before and after a position, the one digit (or letter) that makes it hold there is solved for,
 * so a 25-character reference costs about what validating one IBAN does. A Belgian reference has
 * 12 digits and some 120 candidates, checked as they are.
 */
import { belgianCheck, rfCheckDigitsInRange, rfHolds } from './checks.ts';
import type { ReferenceType } from './types.ts';

export const MAX_REFERENCE_SUGGESTIONS = 5;

const DIGITS = '0123456789';

/** 10^k mod 97, for the widths a reference of 25 characters (at most 50 decimal places) reaches. */
const POW10 = [1];
/** The inverse of 10^k mod 97 (10 × 68 = 680 = 7 × 97 + 1). */
const INV_POW10 = [1];
for (let k = 1; k < 64; k++) {
  POW10.push(((POW10[k - 1] ?? 0) * 10) % 97);
  INV_POW10.push(((INV_POW10[k - 1] ?? 0) * 68) % 97);
}
const pow10 = (k: number) => POW10[k] ?? 0;
const invPow10 = (k: number) => INV_POW10[k] ?? 0;
const numberOf = (c: string) => (c < 'A' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55);
const widthOf = (c: string) => (c < 'A' ? 1 : 2);

export function suggestReferences(reference: string, type: ReferenceType): string[] {
  if (type === 'rf') return suggestRf(reference);
  if (type === 'be_ogm') return suggestBelgian(reference);
  // One check digit: a typo one edit away has as many fixes as there are positions.
  return [];
}

/** Edits in order: at each position its substitutions (digits, then letters), then the swap with its right neighbour. */
function collect(
  reference: string,
  first: number,
  substitutes: (i: number) => string[],
  swapHolds: (i: number) => boolean,
): string[] {
  const found: string[] = [];
  for (let i = first; i < reference.length; i++) {
    const here = reference.charAt(i);
    for (const c of substitutes(i)) {
      if (c === here) continue;
      found.push(reference.slice(0, i) + c + reference.slice(i + 1));
      if (found.length === MAX_REFERENCE_SUGGESTIONS) return found;
    }
    const next = reference.charAt(i + 1);
    if (next !== '' && next !== here && swapHolds(i)) {
      found.push(reference.slice(0, i) + next + here + reference.slice(i + 2));
      if (found.length === MAX_REFERENCE_SUGGESTIONS) return found;
    }
  }
  return found;
}

/**
 * RF: the check reads the rearranged form (the body, then `RF` and the check digits), which must
 * leave 1 mod 97. With the remainders of every prefix and suffix of it, the value a substituted
 * character must have is solved for (one digit, or one letter, at most), and a swap's remainder
 * is the prefix's shifted past the two characters, then past the suffix, plus the suffix's.
 */
function suggestRf(reference: string): string[] {
  const rearranged = reference.slice(4) + reference.slice(0, 4);
  const n = rearranged.length;
  // Position i of the reference is position at(i) of the rearranged form.
  const at = (i: number) => (i >= 4 ? i - 4 : n - 4 + i);
  const prefix = new Array<number>(n + 1).fill(0);
  for (let k = 0; k < n; k++) {
    const c = rearranged.charAt(k);
    prefix[k + 1] = ((prefix[k] ?? 0) * pow10(widthOf(c)) + numberOf(c)) % 97;
  }
  const suffix = new Array<number>(n + 1).fill(0);
  const suffixWidth = new Array<number>(n + 1).fill(0);
  for (let k = n - 1; k >= 0; k--) {
    const c = rearranged.charAt(k);
    suffixWidth[k] = (suffixWidth[k + 1] ?? 0) + widthOf(c);
    suffix[k] = (numberOf(c) * pow10(suffixWidth[k + 1] ?? 0) + (suffix[k + 1] ?? 0)) % 97;
  }
  const mod = (x: number) => ((x % 97) + 97) % 97;
  const checkDigitsInRange = rfCheckDigitsInRange(reference);
  /** The characters that, put at reference position i, leave 1: a digit, and for the body a letter. */
  const substitutes = (i: number): string[] => {
    const k = at(i);
    // (prefix * 10^w + v) * 10^width(suffix) + suffix ≡ 1, so prefix * 10^w + v ≡ needed.
    const needed = mod((1 - (suffix[k + 1] ?? 0)) * invPow10(suffixWidth[k + 1] ?? 0));
    const out: string[] = [];
    const digit = mod(needed - (prefix[k] ?? 0) * 10);
    if (digit <= 9) out.push(String(digit));
    const letter = mod(needed - (prefix[k] ?? 0) * 100);
    if (i >= 4 && letter >= 10 && letter <= 35) out.push(String.fromCharCode(letter + 55));
    // The check digits must stay 02 to 98, which the remainder alone does not say: an edit of
    // the body keeps them, so with 00 or 01 none of its edits holds.
    if (i > 3) return checkDigitsInRange ? out : [];
    return out.filter((c) => rfHolds(reference.slice(0, i) + c + reference.slice(i + 1)));
  };
  const swapHolds = (i: number) => {
    // Positions 3 and 4 are not neighbours in the rearranged form; 2 and 3 are the check digits.
    if (i <= 3) {
      return rfHolds(reference.slice(0, i) + reference.charAt(i + 1) + reference.charAt(i) + reference.slice(i + 2));
    }
    if (!checkDigitsInRange) return false;
    const k = at(i);
    let r = prefix[k] ?? 0;
    for (const c of [reference.charAt(i + 1), reference.charAt(i)]) r = (r * pow10(widthOf(c)) + numberOf(c)) % 97;
    return (r * pow10(suffixWidth[k + 2] ?? 0) + (suffix[k + 2] ?? 0)) % 97 === 1;
  };
  return collect(reference, 2, substitutes, swapHolds);
}

/**
 * Belgian: the first ten digits N must leave the last two mod 97 (97 for 0). An edit of digit d
 * to d' at place p of N changes the remainder by (d' - d) × 10^p, so each candidate is judged
 * by one multiplication; only edits of the check digits themselves, or across them, are built.
 */
function suggestBelgian(reference: string): string[] {
  const remainder = mod97Digits(reference.slice(0, 10));
  const check = Number(reference.slice(10));
  const holds = (candidate: string) => belgianCheck(candidate.slice(0, 10)) === candidate.slice(10);
  const holdsWith = (r: number) => (r === 0 ? 97 : r) === check;
  const digit = (i: number) => reference.charCodeAt(i) - 48;
  const substitutes = (i: number): string[] => {
    if (i >= 10) {
      return [...DIGITS].filter(
        (c) => c !== reference.charAt(i) && holds(reference.slice(0, i) + c + reference.slice(i + 1)),
      );
    }
    const place = pow10(9 - i);
    return [...DIGITS].filter(
      (_digit, d) => d !== digit(i) && holdsWith((((remainder + (d - digit(i)) * place) % 97) + 97) % 97),
    );
  };
  const swapHolds = (i: number) => {
    if (i >= 9)
      return holds(reference.slice(0, i) + reference.charAt(i + 1) + reference.charAt(i) + reference.slice(i + 2));
    const change = (digit(i + 1) - digit(i)) * pow10(9 - i) + (digit(i) - digit(i + 1)) * pow10(8 - i);
    return holdsWith((((remainder + change) % 97) + 97) % 97);
  };
  return collect(reference, 0, substitutes, swapHolds);
}

const mod97Digits = (digits: string) => {
  let r = 0;
  for (let i = 0; i < digits.length; i++) r = (r * 10 + digits.charCodeAt(i) - 48) % 97;
  return r;
};
