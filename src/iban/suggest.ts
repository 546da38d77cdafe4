/**
 * Suggestions for an invalid IBAN of known country and correct length: valid IBANs one
 * adjacent transposition or one character substitution (within the position's class)
 * away, best first.
 *
 * No candidate is tried blindly. With T the IBAN's remainder, an edit must change the
 * rearranged number by (1 - T) mod 97. For an edit at a known decimal place that fixes
 * the new character's value (substitution) or tells whether a swap works (transposition)
 * in one or two multiplications mod 97, in a single pass. Only those candidates are built
 * and given the remaining checks (check digit range, structure, national check).
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
/** Every k used is below 160; past it Math.imul would read the missing entry as 0 anyway. */
function pow10(k: number): number {
  return POW10[k] ?? 0;
}
function invPow10(k: number): number {
  return INV_POW10[k] ?? 0;
}
for (let k = 1; k < POW10.length; k++) {
  POW10[k] = (pow10(k - 1) * 10) % 97;
  INV_POW10[k] = (invPow10(k - 1) * 68) % 97;
}

/**
 * (a * b + c) mod 97 for small non-negative ints: Math.imul and `| 0` keep V8 on int32
 * arithmetic, where `% 97` is a multiply-shift instead of a floating-point fmod call.
 */
const mulAddMod = (a: number, b: number, c: number): number => ((Math.imul(a, b) + c) | 0) % 97;
/** x mod 97 in 0..96 for any int x above -9700. */
const mod = (x: number): number => ((x % 97) + 97) % 97;

/** Characters people mistake for one another when reading or typing an IBAN, as a 91 x 91 table of char codes. */
const LOOK_ALIKE = new Uint8Array(91 * 91);
for (const pair of ['0O', '1I', '1L', '5S', '8B', '2Z', '6G']) {
  const a = pair.charCodeAt(0);
  const b = pair.charCodeAt(1);
  LOOK_ALIKE[a * 91 + b] = 1;
  LOOK_ALIKE[b * 91 + a] = 1;
}

/** Rank 0: transposition, the commonest slip. Substitutions: 1 look-alike, 2 neighbouring digit, 3 any other. */
function substitutionRank(from: number, to: number): number {
  if (LOOK_ALIKE[from * 91 + to] === 1) return 1;
  return from < 65 && to < 65 && (from - to === 1 || to - from === 1) ? 2 : 3;
}

/** A candidate's order: by rank, then by the IBAN index of its (first) edited character. */
interface Candidate {
  iban: string;
  rank: number;
  at: number;
}

const precedes = (rank: number, at: number, other: Candidate): boolean =>
  rank < other.rank || (rank === other.rank && at < other.at);

/** A check a candidate must also pass (a German account's own check digit), beside the IBAN's. */
export type Acceptance = (iban: string) => boolean;

/**
 * Adds the candidate (whose mod 97 passes) if it passes the other checks, keeping `found`
 * ordered and at most MAX_SUGGESTIONS long. Candidates never repeat: a transposition
 * changes two positions, a substitution one. A candidate is judged whole before it takes a
 * place, so one the national check refuses never pushes out one it would keep.
 */
function admit(
  found: Candidate[],
  iban: string,
  rank: number,
  at: number,
  spec: CountrySpec,
  structureKnown: boolean,
  alsoPasses: Acceptance | undefined,
): void {
  if (!passesBesidesMod97(iban, spec, structureKnown)) return;
  if (alsoPasses && !alsoPasses(iban)) return;
  let slot = found.length;
  for (let before = found[slot - 1]; before !== undefined && precedes(rank, at, before); before = found[slot - 1]) {
    slot--;
  }
  found.splice(slot, 0, { iban, rank, at });
  if (found.length > MAX_SUGGESTIONS) found.pop();
}

/** `found` never holds more than MAX_SUGGESTIONS, so its last slot is empty exactly when it is short. */
function makesTheCut(found: Candidate[], rank: number, at: number): boolean {
  const last = found[MAX_SUGGESTIONS - 1];
  return last === undefined || precedes(rank, at, last);
}

function substitute(
  found: Candidate[],
  iban: string,
  i: number,
  value: number,
  spec: CountrySpec,
  alsoPasses: Acceptance | undefined,
): void {
  const from = iban.charCodeAt(i);
  const to = value < 10 ? value + 48 : value + 55;
  const rank = substitutionRank(from, to);
  if (!makesTheCut(found, rank, i)) return;
  admit(found, iban.slice(0, i) + String.fromCharCode(to) + iban.slice(i + 1), rank, i, spec, true, alsoPasses);
}

function transpose(
  found: Candidate[],
  iban: string,
  i: number,
  spec: CountrySpec,
  alsoPasses: Acceptance | undefined,
): void {
  if (!makesTheCut(found, 0, i)) return;
  admit(found, iban.slice(0, i) + iban[i + 1] + iban[i] + iban.slice(i + 2), 0, i, spec, false, alsoPasses);
}

const digitValueOf = (c: number): number => (c < 65 ? c - 48 : c - 55);
const widthOf = (c: number): number => (c < 65 ? 1 : 2);

/**
 * Up to MAX_SUGGESTIONS valid IBANs one edit away, best first (by rank, then left to right),
 * each also passing `alsoPasses` where given.
 */
export function suggest(iban: string, spec: CountrySpec, alsoPasses?: Acceptance): string[] {
  const n = iban.length;
  const remainder = ibanRemainder(iban);
  const needed = (98 - remainder) % 97; // what an edit must add, mod 97
  let totalWidth = 0;
  for (let i = 0; i < n; i++) totalWidth += widthOf(iban.charCodeAt(i));
  // A substitution keeps to its position's class: it can only give a valid structure if
  // the input's held, or if the input's one fault is the substituted character.
  const fault = structureFault(iban, spec);
  const found: Candidate[] = [];

  // Walk the rearranged form (BBAN, then country code and check digits), keeping the
  // remainder of the part before position k and the number of decimal places after it.
  let prefix = 0;
  let prefixWidth = 0;
  for (let k = 0; k < n; k++) {
    const i = k < n - 4 ? k + 4 : k - (n - 4);
    const c = iban.charCodeAt(i);
    const v = digitValueOf(c);
    const w = widthOf(c);
    const after = totalWidth - prefixWidth - w;
    if (i >= 2 && (fault === -1 || fault === i)) {
      const accepts = i < 4 ? 1 : (spec.classes[i - 4] ?? 0); // bit 1: digit, bit 2: letter
      // Same kind of character: the value must grow by needed / 10^after.
      let same = -1;
      if ((accepts & w) !== 0) {
        const target = (v + mulAddMod(needed, invPow10(after), 0)) % 97;
        if (target !== v && (w === 1 ? target <= 9 : target >= 10 && target <= 35)) same = target;
      }
      // The other kind changes the width by one place: solve with the suffix's remainder.
      let other = -1;
      if ((accepts & (3 - w)) !== 0) {
        const suffix = mod(remainder - mulAddMod(mulAddMod(prefix, pow10(w), v), pow10(after), 0));
        const through = mulAddMod(mod(1 - suffix), invPow10(after), 0);
        const target = mod(through - mulAddMod(prefix, pow10(3 - w), 0));
        if (w === 2 ? target <= 9 : target >= 10 && target <= 35) other = target;
      }
      // At one position a digit comes before a letter.
      const first = w === 1 ? same : other;
      const second = w === 1 ? other : same;
      if (first >= 0) substitute(found, iban, i, first, spec, alsoPasses);
      if (second >= 0) substitute(found, iban, i, second, spec, alsoPasses);
    }
    if (i >= 2 && i !== 3 && i < n - 1) {
      // Swapping with IBAN index i + 1, the next rearranged position (3 and 4 are not neighbours there).
      const c2 = iban.charCodeAt(i + 1);
      if (c2 !== c) {
        const v2 = digitValueOf(c2);
        const w2 = widthOf(c2);
        const change = mod(v2 * (w === 1 ? 10 : 100) + v - v * (w2 === 1 ? 10 : 100) - v2);
        if (mulAddMod(change, pow10(after - w2), 0) === needed) transpose(found, iban, i, spec, alsoPasses);
      }
    }
    prefix = mulAddMod(prefix, pow10(w), v);
    prefixWidth += w;
  }
  if (
    iban.charCodeAt(3) !== iban.charCodeAt(4) &&
    ibanRemainder(iban.slice(0, 3) + iban[4] + iban[3] + iban.slice(5)) === 1
  ) {
    transpose(found, iban, 3, spec, alsoPasses);
  }
  return found.map((f) => f.iban);
}
