/**
 * Suggestions for an invalid IBAN of known country and correct length: valid IBANs one
 * adjacent transposition or one character substitution (within the position's class)
 * away. Prefix and suffix remainders of the rearranged IBAN give each transposition's
 * mod 97 in O(1), and for a substitution they give the one digit value and the one letter
 * value that a position would need: only those few candidates are built and fully checked.
 */
import { passesBesidesMod97, structureFault } from './checks.ts';
import { ibanRemainder } from './mod97.ts';
import type { CountrySpec } from './registry.ts';

export const MAX_SUGGESTIONS = 3;

/** 10^k mod 97, and its inverse (10 * 68 = 680 = 7 * 97 + 1). */
const POW10 = new Int32Array(160);
const INV_POW10 = new Int32Array(160);
POW10[0] = 1;
INV_POW10[0] = 1;
for (let k = 1; k < POW10.length; k++) {
  POW10[k] = (POW10[k - 1]! * 10) % 97;
  INV_POW10[k] = (INV_POW10[k - 1]! * 68) % 97;
}

/** Characters people mistake for one another when reading or typing an IBAN, as a 91 x 91 table of char codes. */
const LOOK_ALIKE = new Uint8Array(91 * 91);
for (const [a, b] of ['0O', '1I', '1L', '5S', '8B', '2Z', '6G']) {
  LOOK_ALIKE[a!.charCodeAt(0) * 91 + b!.charCodeAt(0)] = 1;
  LOOK_ALIKE[b!.charCodeAt(0) * 91 + a!.charCodeAt(0)] = 1;
}

/** Rank 0: transposition, the commonest slip. Substitutions: 1 look-alike, 2 neighbouring digit, 3 any other. */
interface Candidate { iban: string; rank: number }

// Scratch buffers, reused: rearranged character codes, prefix and suffix remainders, suffix widths (in decimal digits).
const MAX_LENGTH = 80;
const codes = new Int32Array(MAX_LENGTH);
const pre = new Int32Array(MAX_LENGTH + 1);
const suf = new Int32Array(MAX_LENGTH + 1);
const width = new Int32Array(MAX_LENGTH + 1);

/**
 * (a * b + c) mod 97 for a, b, c in 0..96: Math.imul and `| 0` keep V8 on int32 arithmetic,
 * where `% 97` is a cheap multiply-shift instead of a floating-point fmod call.
 */
const mulAddMod = (a: number, b: number, c: number): number => ((Math.imul(a, b) + c) | 0) % 97;

const value = (c: number): number => (c < 65 ? c - 48 : c - 55);
const widthOf = (c: number): number => (c < 65 ? 1 : 2);
/** Index in the rearranged form (BBAN first, then country code and check digits) of IBAN index i. */
const rearranged = (i: number, n: number): number => (i >= 4 ? i - 4 : n - 4 + i);

function substitutionRank(from: number, to: number): number {
  if (LOOK_ALIKE[from * 91 + to] === 1) return 1;
  return from < 65 && to < 65 && (from - to === 1 || to - from === 1) ? 2 : 3;
}

/**
 * `candidate` passes mod 97. Keeps `found` sorted by rank (stable, so left to right within a rank) and at most
 * MAX_SUGGESTIONS long; a candidate that could not make the cut is not even checked.
 * Candidates never repeat: a transposition changes two positions, a substitution one.
 */
function consider(found: Candidate[], candidate: string, rank: number, spec: CountrySpec, structureKnown: boolean): void {
  if (found.length === MAX_SUGGESTIONS && found[MAX_SUGGESTIONS - 1]!.rank <= rank) return;
  if (!passesBesidesMod97(candidate, spec, structureKnown)) return;
  let at = found.length;
  while (at > 0 && found[at - 1]!.rank > rank) at--;
  found.splice(at, 0, { iban: candidate, rank });
  if (found.length > MAX_SUGGESTIONS) found.pop();
}

function prepare(iban: string, n: number): void {
  for (let i = 0; i < n; i++) codes[rearranged(i, n)] = iban.charCodeAt(i);
  pre[0] = 0;
  for (let k = 0; k < n; k++) pre[k + 1] = mulAddMod(pre[k]!, POW10[widthOf(codes[k]!)]!, value(codes[k]!));
  suf[n] = 0;
  width[n] = 0;
  for (let k = n - 1; k >= 0; k--) {
    width[k] = width[k + 1]! + widthOf(codes[k]!);
    suf[k] = mulAddMod(value(codes[k]!), POW10[width[k + 1]!]!, suf[k + 1]!);
  }
}

const swap = (s: string, i: number): string => s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);

function addTranspositions(found: Candidate[], iban: string, n: number, spec: CountrySpec): void {
  for (let i = 2; i < n - 1; i++) {
    const a = iban.charCodeAt(i);
    const b = iban.charCodeAt(i + 1);
    if (a === b) continue;
    let rem: number;
    if (i === 3) rem = ibanRemainder(swap(iban, i)); // IBAN indexes 3 and 4 are not neighbours once rearranged
    else {
      const k = rearranged(i, n);
      const x = mulAddMod(mulAddMod(pre[k]!, POW10[widthOf(b)]!, value(b)), POW10[widthOf(a)]!, value(a));
      rem = mulAddMod(x, POW10[width[k + 2]!]!, suf[k + 2]!);
    }
    if (rem === 1) consider(found, swap(iban, i), 0, spec, false);
  }
}

/**
 * For the IBAN to pass, the prefix up to and including the new character must leave the
 * remainder `need`; a digit (value 0-9) or a letter (value 10-35) can each meet it in at
 * most one way. A substitution keeps to its position's class, so the candidate's structure
 * holds if the input's held, or if the input's one fault was at that position.
 */
function addSubstitutions(found: Candidate[], iban: string, n: number, spec: CountrySpec): void {
  const fault = structureFault(iban, spec);
  if (fault === -2) return;
  for (let i = fault === -1 ? 2 : fault; i < (fault === -1 ? n : fault + 1); i++) {
    const accepts = i < 4 ? 1 : spec.classes[i - 4]!; // bit 1: digit, bit 2: letter
    const k = rearranged(i, n);
    const need = mulAddMod((98 - suf[k + 1]!) % 97, INV_POW10[width[k + 1]!]!, 0);
    const digit = (need + 97 - mulAddMod(pre[k]!, 10, 0)) % 97;
    const letter = (need + 97 - mulAddMod(pre[k]!, 100 % 97, 0)) % 97;
    if ((accepts & 1) !== 0 && digit <= 9 && digit + 48 !== codes[k]) {
      consider(found, iban.slice(0, i) + String.fromCharCode(digit + 48) + iban.slice(i + 1), substitutionRank(codes[k]!, digit + 48), spec, true);
    }
    if ((accepts & 2) !== 0 && letter >= 10 && letter <= 35 && letter + 55 !== codes[k]) {
      consider(found, iban.slice(0, i) + String.fromCharCode(letter + 55) + iban.slice(i + 1), substitutionRank(codes[k]!, letter + 55), spec, true);
    }
  }
}

/** Up to MAX_SUGGESTIONS valid IBANs one edit away, best first (by rank, then left to right). */
export function suggest(iban: string, spec: CountrySpec): string[] {
  const n = iban.length;
  if (n > MAX_LENGTH) return [];
  prepare(iban, n);
  const found: Candidate[] = [];
  addTranspositions(found, iban, n, spec);
  addSubstitutions(found, iban, n, spec);
  return found.map((f) => f.iban);
}
