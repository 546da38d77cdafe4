/**
 * German account check-digit methods (Bundesbank "Prüfzifferberechnungsmethoden"), as pure
 * functions of the 10-digit account number (left-padded with zeros). Positions are counted
 * 1 to 10 from the left, as the Bundesbank's description does. Where a method says an account
 * "cannot be checked" or is "to be regarded as correct", the function answers true: this check
 * only ever refuses what the method itself calls wrong.
 *
 * A function reads the account as the last 10 characters of its argument, so that validation
 * can pass the whole German IBAN without cutting a string out of it; weights are full-length
 * constants, so the hot loops neither allocate nor take a modulus per digit.
 */
export type AccountCheck = (account: string) => boolean;

/** Digit at 1-based position `pos` of the account (the last 10 characters of `a`). */
const d = (a: string, pos: number): number => a.charCodeAt(a.length - 11 + pos) - 48;

/** The 10-digit account itself, for the few rules that compare or move it as a whole. */
const acct = (a: string): string => (a.length === 10 ? a : a.slice(a.length - 10));

/** Sum over positions `to` down to `from` (right to left) of digit × weights[0], weights[1], .... */
function weightedSum(a: string, from: number, to: number, weights: readonly number[]): number {
  const base = a.length - 11;
  let sum = 0;
  // Every caller passes at least one weight per position.
  for (let pos = to, i = 0; pos >= from; pos--, i++) sum += (a.charCodeAt(base + pos) - 48) * (weights[i] ?? 0);
  return sum;
}

/** A digit doubled, then its digits summed (16 gives 7). */
const DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

/** Weights 2, 1, 2, ... from the right, the digits of each product summed (method 00's sum). */
function crossSum(a: string, from: number, to: number): number {
  const base = a.length - 11;
  let sum = 0;
  let double = true;
  for (let pos = to; pos >= from; pos--) {
    const digit = a.charCodeAt(base + pos) - 48;
    sum += double ? (DOUBLED[digit] ?? 0) : digit; // the account is digits only
    double = !double;
  }
  return sum;
}

/** `weights` repeated to 10 entries. */
const cycle = (weights: readonly number[]): readonly number[] =>
  Array.from({ length: 10 }, (_, i) => weights[i % weights.length] ?? 0);

const W21 = cycle([2, 1]);
const W2TO7 = cycle([2, 3, 4, 5, 6, 7]);
const W371 = cycle([3, 7, 1]);
const W731 = cycle([7, 3, 1]);
const W3971 = cycle([3, 9, 7, 1]);
const W2TO10 = [2, 3, 4, 5, 6, 7, 8, 9, 10];
const W19 = [2, 3, 4, 5, 6, 7, 8, 9, 1];
const W20 = [2, 3, 4, 5, 6, 7, 8, 9, 3];
const W02 = [2, 3, 4, 5, 6, 7, 8, 9, 2];
const W2TO8 = [2, 3, 4, 5, 6, 7, 8];
const W2TO6 = [2, 3, 4, 5, 6];
const W34 = [2, 4, 8, 5, 10, 9, 7];
const W38 = [2, 4, 8, 5, 10, 9];
const W40 = [2, 4, 8, 5, 10, 9, 7, 3, 6];
const W44 = [2, 4, 8, 5, 10];
const W7TO2 = [7, 6, 5, 4, 3, 2];
const W91_3 = [2, 3, 4, 0, 5, 6, 7, 8, 9, 10];

/** Method 00 style: modulus 10 over the cross sums, check digit (10 - units) mod 10 at `checkPos`. */
const mod10 = (a: string, from: number, to: number, checkPos: number): boolean =>
  (10 - (crossSum(a, from, to) % 10)) % 10 === d(a, checkPos);

/** Method 01 style: modulus 10 over the plain products. */
const mod10Plain = (a: string, from: number, to: number, checkPos: number, weights: readonly number[]): boolean =>
  (10 - (weightedSum(a, from, to, weights) % 10)) % 10 === d(a, checkPos);

/** Method 06 style: modulus 11, remainder 0 or 1 gives check digit 0, else 11 - remainder. */
const mod11Of = (sum: number): number => {
  const r = sum % 11;
  return r <= 1 ? 0 : 11 - r;
};
const mod11 = (a: string, from: number, to: number, checkPos: number, weights: readonly number[]): boolean =>
  mod11Of(weightedSum(a, from, to, weights)) === d(a, checkPos);

/** Method 02/04 style: remainder 1 makes the account wrong. */
const mod11Strict = (a: string, from: number, to: number, checkPos: number, weights: readonly number[]): boolean => {
  const r = weightedSum(a, from, to, weights) % 11;
  return r !== 1 && (r === 0 ? 0 : 11 - r) === d(a, checkPos);
};

const inRange = (a: string, low: string, high: string): boolean => {
  const x = acct(a);
  return x >= low && x <= high;
};

const m00: AccountCheck = (a) => mod10(a, 1, 9, 10);
const m01: AccountCheck = (a) => mod10Plain(a, 1, 9, 10, W371);
const m03: AccountCheck = (a) => mod10Plain(a, 1, 9, 10, W21);
const m04: AccountCheck = (a) => mod11Strict(a, 1, 9, 10, W2TO7);
const m06: AccountCheck = (a) => mod11(a, 1, 9, 10, W2TO7);
const m08: AccountCheck = (a) => acct(a) < '0000060000' || m00(a);
const m10: AccountCheck = (a) => mod11(a, 1, 9, 10, W2TO10);
// Moved two places left (sub-account "00" left off), base number 2-7 and check 8 become 4-9 and 10.
const m13: AccountCheck = (a) => mod10(a, 2, 7, 8) || mod10(a, 4, 9, 10);
const m19: AccountCheck = (a) => mod11(a, 1, 9, 10, W19);
const m20: AccountCheck = (a) => mod11(a, 1, 9, 10, W20);

/** Method 24: from the first non-zero digit, (digit × w + w) mod 11 summed, units digit is the check. */
const m24: AccountCheck = (a) => {
  const first = d(a, 1);
  // A leading 3-6 counts as 0; a leading 9 zeroes positions 1-3.
  const skip = first === 9 ? 3 : first >= 3 && first <= 6 ? 1 : 0;
  let pos = skip + 1;
  while (pos <= 9 && d(a, pos) === 0) pos++;
  let sum = 0;
  for (let w = 1; pos <= 9; pos++, w = w === 3 ? 1 : w + 1) sum += (d(a, pos) * w + w) % 11;
  return sum % 10 === d(a, 10);
};

const m28: AccountCheck = (a) => mod11(a, 1, 7, 8, W2TO8);
const m32: AccountCheck = (a) => mod11(a, 4, 9, 10, W2TO7);
const m33: AccountCheck = (a) => mod11(a, 5, 9, 10, W2TO6);
const m34: AccountCheck = (a) => mod11(a, 1, 7, 8, W34);
const m38: AccountCheck = (a) => mod11(a, 4, 9, 10, W38);
const m48: AccountCheck = (a) => mod11(a, 3, 8, 9, W2TO7);
const m60: AccountCheck = (a) => mod10(a, 3, 9, 10);

/** Positions 1-7, 9 and 10 weighted 2, 1, 2 ... from the left (cross sums); check digit at 8. */
const TYPE_DIGIT_POSITIONS = [1, 2, 3, 4, 5, 6, 7, 9, 10];
function withTypeDigits(a: string): boolean {
  let sum = 0;
  for (const [i, pos] of TYPE_DIGIT_POSITIONS.entries()) {
    const p = d(a, pos) * (i % 2 === 0 ? 2 : 1);
    sum += p > 9 ? p - 9 : p;
  }
  return (10 - (sum % 10)) % 10 === d(a, 8);
}

/** Method 61: branch and base number; an account type 8 (position 9) brings positions 9 and 10 in. */
const m61: AccountCheck = (a) => (d(a, 9) === 8 ? withTypeDigits(a) : mod10(a, 1, 7, 8));

/** Method 63: position 1 must be 0; base number 2-7, check at 8; or, with "000" in front, shifted. */
const m63: AccountCheck = (a) =>
  d(a, 1) === 0 && (mod10(a, 2, 7, 8) || (d(a, 2) === 0 && d(a, 3) === 0 && mod10(a, 4, 9, 10)));

const M68_VARIANT2 = [9, 8, 7, 6, 5, 2, 1];

/** Method 68: 10 digits check 4-9 (position 4 must be 9); shorter accounts in two variants. */
const m68: AccountCheck = (a) => {
  if (d(a, 1) !== 0) return d(a, 4) === 9 && mod10(a, 4, 9, 10);
  if (inRange(a, '0400000000', '0499999999')) return true;
  if (mod10(a, 1, 9, 10)) return true;
  // Variant 2: positions 3 and 4 are left out.
  let sum = 0;
  for (const [i, pos] of M68_VARIANT2.entries()) {
    const p = d(a, pos) * (i % 2 === 0 ? 2 : 1);
    sum += p > 9 ? p - 9 : p;
  }
  return (10 - (sum % 10)) % 10 === d(a, 10);
};

/**
 * Method 76: account type (position 1) 0, 4, 6, 7, 8 or 9; base number 2-7, check at 8;
 * remainder 10 is wrong. With the sub-account "00" left off, everything sits two places right.
 */
function m76At(a: string, shift: number): boolean {
  const type = d(a, 1 + shift);
  if ((type !== 0 && type < 4) || type === 5) return false;
  const r = weightedSum(a, 2 + shift, 7 + shift, W2TO7) % 11;
  return r !== 10 && r === d(a, 8 + shift);
}
const m76: AccountCheck = (a) => m76At(a, 0) || m76At(a, 2);

/** Method 88: positions 4-9, or 3-9 when position 3 is 9. */
const m88: AccountCheck = (a) => (d(a, 3) === 9 ? mod11(a, 3, 9, 10, W2TO8) : mod11(a, 4, 9, 10, W2TO7));

/** Method 91: check digit at 7, four variants tried in order. */
const m91: AccountCheck = (a) =>
  mod11(a, 1, 6, 7, W2TO7) ||
  mod11(a, 1, 6, 7, W7TO2) ||
  mod11Of(weightedSum(a, 1, 10, W91_3)) === d(a, 7) ||
  mod11(a, 1, 6, 7, W38);

const M95_UNCHECKED: readonly [string, string][] = [
  ['0000000001', '0001999999'],
  ['0009000000', '0025999999'],
  ['0396000000', '0499999999'],
  ['0700000000', '0799999999'],
  ['0910000000', '0989999999'],
];
const m95: AccountCheck = (a) => m06(a) || M95_UNCHECKED.some(([lo, hi]) => inRange(a, lo, hi));
const m99: AccountCheck = (a) => m06(a) || inRange(a, '0396000000', '0499999999');

const mA2: AccountCheck = (a) => m00(a) || m04(a);

/** Method D8: 1000000000 and up as 00; 0010000000-0099999999 unchecked; anything else wrong. */
const mD8: AccountCheck = (a) => (d(a, 1) !== 0 ? m00(a) : acct(a) >= '0010000000');

const m02: AccountCheck = (a) => mod11Strict(a, 1, 9, 10, W02);
const m05: AccountCheck = (a) => mod10Plain(a, 1, 9, 10, W731);
const m11: AccountCheck = (a) => {
  const r = weightedSum(a, 1, 9, W2TO10) % 11;
  return (r === 0 ? 0 : r === 1 ? 9 : 11 - r) === d(a, 10);
};
/** Method 16: as 06, but remainder 1 makes the account right exactly when positions 9 and 10 are equal. */
const m16: AccountCheck = (a) => {
  const r = weightedSum(a, 1, 9, W2TO7) % 11;
  return r === 1 ? d(a, 9) === d(a, 10) : (r === 0 ? 0 : 11 - r) === d(a, 10);
};

/** Method 17: base number 2-7 weighted 1, 2 from the left (cross sums), minus 1, mod 11, subtracted from 10. */
const m17: AccountCheck = (a) => {
  let sum = 0;
  for (let pos = 2; pos <= 7; pos++) {
    const p = d(a, pos) * (pos % 2 === 0 ? 1 : 2);
    sum += p > 9 ? p - 9 : p;
  }
  const r = (sum - 1) % 11;
  return (r === 0 ? 0 : 10 - r) === d(a, 8);
};

const m18: AccountCheck = (a) => mod10Plain(a, 1, 9, 10, W3971);

/** The iterated transformation M10H (methods 27, 29): rows 1-4 from the right, digits translated and summed. */
const M10H = [
  [0, 1, 5, 9, 3, 7, 4, 8, 2, 6],
  [0, 1, 7, 6, 9, 8, 3, 2, 5, 4],
  [0, 1, 8, 4, 6, 2, 9, 5, 7, 3],
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
];
const m29: AccountCheck = (a) => {
  let sum = 0;
  for (let pos = 9, row = 0; pos >= 1; pos--, row = (row + 1) % 4) sum += M10H[row]?.[d(a, pos)] ?? 0;
  return (10 - (sum % 10)) % 10 === d(a, 10);
};
const m27: AccountCheck = (a) => (d(a, 1) === 0 ? m00(a) : m29(a));

const m40: AccountCheck = (a) => mod11(a, 1, 9, 10, W40);
const m44: AccountCheck = (a) => mod11(a, 5, 9, 10, W44);
const m49: AccountCheck = (a) => m00(a) || m01(a);

/** Method 50: base number 1-6, check at 7; or, when the sub-number "000" was left off, moved three places. */
// Moved three places left, base number 1-6 and check 7 become 4-9 and 10.
const m50: AccountCheck = (a) => mod11(a, 1, 6, 7, W2TO7) || mod11(a, 4, 9, 10, W2TO7);

/** Method 56: results 10 and 11 are wrong, except for accounts starting with 9, where they become 7 and 8. */
const m56: AccountCheck = (a) => {
  const p = 11 - (weightedSum(a, 1, 9, W2TO7) % 11);
  if (p < 10) return p === d(a, 10);
  return d(a, 1) === 9 && (p === 10 ? 7 : 8) === d(a, 10);
};

const m64: AccountCheck = (a) => mod11(a, 1, 6, 7, W38);

/** Method 65: as 61, with account type 9 (position 9) bringing positions 9 and 10 in. */
const m65: AccountCheck = (a) => (d(a, 9) === 9 ? withTypeDigits(a) : mod10(a, 1, 7, 8));
const m67: AccountCheck = (a) => mod10(a, 1, 7, 8);
const m92: AccountCheck = (a) => mod10Plain(a, 4, 9, 10, W371);

const mA3: AccountCheck = (a) => m00(a) || m10(a);
const mA7: AccountCheck = (a) => m00(a) || m03(a);
const mB1: AccountCheck = (a) => m05(a) || m01(a) || m00(a);
const mB2: AccountCheck = (a) => (d(a, 1) <= 7 ? m02(a) : m00(a));
const mB8: AccountCheck = (a) =>
  m20(a) || m29(a) || inRange(a, '5100000000', '5999999999') || inRange(a, '9010000000', '9109999999');

/**
 * Method C0: accounts with exactly two leading zeros are checked by method 52 first, then 20;
 * all others by 20 alone. Method 52 (which needs the bank's ESER data) is not implemented, so
 * such an account that fails 20 is not refused.
 */
const mC0: AccountCheck = (a) => m20(a) || (d(a, 1) === 0 && d(a, 2) === 0 && d(a, 3) !== 0);

/** Every implemented method by its Bundesbank code. 09 checks nothing. */
export const DE_METHODS: Readonly<Record<string, AccountCheck>> = {
  '00': m00,
  '01': m01,
  '02': m02,
  '03': m03,
  '04': m04,
  '05': m05,
  '06': m06,
  '08': m08,
  '09': () => true,
  '10': m10,
  '11': m11,
  '13': m13,
  '16': m16,
  '17': m17,
  '18': m18,
  '19': m19,
  '20': m20,
  '24': m24,
  '27': m27,
  '28': m28,
  '29': m29,
  '32': m32,
  '33': m33,
  '34': m34,
  '38': m38,
  '40': m40,
  '44': m44,
  '48': m48,
  '49': m49,
  '50': m50,
  '56': m56,
  '60': m60,
  '61': m61,
  '63': m63,
  '64': m64,
  '65': m65,
  '67': m67,
  '68': m68,
  '76': m76,
  '88': m88,
  '91': m91,
  '92': m92,
  '95': m95,
  '99': m99,
  A2: mA2,
  A3: mA3,
  A7: mA7,
  B1: mB1,
  B2: mB2,
  B8: mB8,
  C0: mC0,
  D8: mD8,
};
