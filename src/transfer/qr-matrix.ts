/**
 * The module matrix of a QR code at error correction M, exactly as @paulmillr/qr draws it (the
 * same version, the same mask by the same penalty), faster than the library's own mask search.
 *
 * Why this module recomputes the masks: measured gain ~6.5 ms → ~1.6 ms of CPU per SVG for a
 * QR-bill code of version 14 (the library's matrix alone 6499 µs; this matrix and the SVG text
 * 1606 µs; docs/benchmarks.md, "Payment QR codes"), most of a `POST /v1/payment/qr` request's time.
 * The library tries its 8 masks by drawing the code 8 times over and scoring each with a
 * penalty written for clarity. Here the library draws the code once (a fixed mask and a given
 * version, so it searches neither), and the other 7 masks are derived from it: a data module's
 * value is the data bit XOR the mask's pattern, so the data bits are read back once (from the
 * modules ISO/IEC 18004 gives to data, as the library does) and each mask, its pattern computed
 * once per version, is a pass over flat arrays, scored by the same four penalty rules (§7.8.3)
 * as the library scores them. test/transfer/qr-matrix.test.ts holds the result equal to the
 * library's own search.
 *
 * Keep this mask arithmetic here, behind `qrMatrix`: nothing else in src/ should depend on the
 * library's layout of the modules.
 */
import encodeQR, { utils } from '@paulmillr/qr';

type Mask = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
/** The masks in the order the library tries them (on a tie, the first wins). */
const MASKS: readonly Mask[] = [0, 1, 2, 3, 4, 5, 6, 7];

/** ISO/IEC 18004 Table 10, the library's order: 1 where the mask darkens (inverts) a data module. */
function maskBit(mask: Mask, x: number, y: number): number {
  switch (mask) {
    case 0:
      return (x + y) % 2 === 0 ? 1 : 0;
    case 1:
      return y % 2 === 0 ? 1 : 0;
    case 2:
      return x % 3 === 0 ? 1 : 0;
    case 3:
      return (x + y) % 3 === 0 ? 1 : 0;
    case 4:
      return ((y >> 1) + ((x / 3) | 0)) % 2 === 0 ? 1 : 0;
    case 5:
      return ((x * y) % 2) + ((x * y) % 3) === 0 ? 1 : 0;
    case 6:
      return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0 ? 1 : 0;
    default:
      return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0 ? 1 : 0;
  }
}

/** The smallest version whose M capacity holds `byteLength` bytes in byte mode (the library's own choice). */
export function smallestVersion(byteLength: number): number {
  for (let ver = 1; ver <= 40; ver++) {
    const bits = 4 + utils.info.lengthBits(ver, 'byte') + 8 * byteLength;
    if (bits <= utils.info.capacity(ver, 'medium').capacity) return ver;
  }
  throw new RangeError(`a QR code holds at most 2331 bytes at error correction M; this payload is ${byteLength}`);
}

/** Dark, light, dark ×3, light, dark with 4 light modules after it, or before it: as 11-bit windows. */
const FINDER_THEN_LIGHT = 0b10111010000;
const LIGHT_THEN_FINDER = 0b00001011101;

/**
 * Rules 1 and 3 for one line: a run of 5 or more modules of one colour scores 3 plus its length
 * over 5; a finder-like pattern beside 4 light modules scores 40.
 */
function linePenalty(m: Uint8Array, size: number, start: number, step: number): number {
  let score = 0;
  let previous = m[start];
  let run = 1;
  let window = previous;
  for (let i = 1, p = start + step; i < size; i++, p += step) {
    const v = m[p];
    if (v === previous) run++;
    else {
      if (run >= 5) score += run - 2;
      run = 1;
      previous = v;
    }
    window = ((window << 1) | v) & 0x7ff;
    if (i >= 10 && (window === FINDER_THEN_LIGHT || window === LIGHT_THEN_FINDER)) score += 40;
  }
  return run >= 5 ? score + run - 2 : score;
}

function penalty(m: Uint8Array, size: number): number {
  let score = 0;
  for (let line = 0; line < size; line++)
    score += linePenalty(m, size, line * size, 1) + linePenalty(m, size, line, size);
  let dark = 0;
  for (let p = 0; p < m.length; p++) dark += m[p];
  // rule 2: each 2 × 2 block of one colour scores 3
  for (let y = 0; y + 1 < size; y++) {
    for (let p = y * size, end = p + size - 1; p < end; p++) {
      const v = m[p];
      if (m[p + 1] === v && m[p + size] === v && m[p + size + 1] === v) score += 3;
    }
  }
  return score + 10 * Math.floor(Math.abs((dark / m.length) * 100 - 50) / 5); // rule 4
}

/**
 * The 15 format bits of error correction M and a mask, in their two copies beside the finder
 * patterns (ISO/IEC 18004 §7.9.1), at the positions the library writes them.
 */
function writeFormat(m: boolean[][], mask: Mask): void {
  const size = m.length;
  const bits = utils.info.formatBits('medium', mask);
  const bit = (i: number) => ((bits >> i) & 1) === 1;
  const set = (x: number, y: number, i: number) => {
    m[y][x] = bit(i);
  };
  for (let i = 0; i < 6; i++) set(8, i, i);
  for (let i = 6; i < 8; i++) set(8, i + 1, i);
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, i);
  for (let i = 0; i < 8; i++) set(size - i - 1, 8, i);
  set(7, 8, 8);
  for (let i = 9; i < 15; i++) set(15 - i - 1, 8, i);
}

const DATA = 0;
/** Finder, separator, alignment and timing modules: the same under every mask. */
const PATTERN = 1;
/** Format and version information and the dark module: left light while masks are scored. */
const INFO = 2;

/** What each module of a code of `version` holds, at the positions the library draws them. */
function moduleKinds(version: number, size: number): Uint8Array {
  const kinds = new Uint8Array(size * size);
  const mark = (x: number, y: number, kind: number) => {
    kinds[y * size + x] = kind;
  };
  const square = (x0: number, y0: number, side: number) => {
    for (let y = y0; y < y0 + side; y++) for (let x = x0; x < x0 + side; x++) mark(x, y, PATTERN);
  };
  // Finder patterns with their separators, 8 × 8 in three corners.
  square(0, 0, 8);
  square(size - 8, 0, 8);
  square(0, size - 8, 8);
  // Alignment patterns, 5 × 5, except where a finder already is.
  const centres = utils.info.alignmentPatterns(version);
  for (const y of centres) for (const x of centres) if (kinds[y * size + x] === DATA) square(x - 2, y - 2, 5);
  // Timing patterns.
  for (let i = 0; i < size; i++) {
    if (kinds[6 * size + i] === DATA) mark(i, 6, PATTERN);
    if (kinds[i * size + 6] === DATA) mark(6, i, PATTERN);
  }
  // Format information (both copies) and the dark module.
  for (let i = 0; i < 9; i++) {
    if (i !== 6) {
      mark(8, i, INFO);
      mark(i, 8, INFO);
    }
  }
  for (let i = 0; i < 8; i++) {
    mark(8, size - 1 - i, INFO);
    mark(size - 1 - i, 8, INFO);
  }
  // Version information, two 6 × 3 blocks.
  if (version >= 7) {
    for (let i = 0; i < 18; i++) {
      const a = Math.floor(i / 3);
      const b = (i % 3) + size - 11;
      mark(b, a, INFO);
      mark(a, b, INFO);
    }
  }
  return kinds;
}

/** Where a version's data modules are, and the bit each mask XORs into each of them. */
interface Layout {
  kinds: Uint8Array;
  /** Indexes (y × size + x) of the data modules. */
  data: Int32Array;
  /** Per mask, in the order of `data`: 1 where the mask darkens the module. */
  maskBits: Uint8Array[];
}

/**
 * Layouts by version, made once: the mask patterns are the same for every code of a version,
 * and computing them per code was a quarter of a QR-bill code's drawing time.
 */
const layouts = new Map<number, Layout>();

function layoutOf(version: number, size: number): Layout {
  const known = layouts.get(version);
  if (known) return known;
  const kinds = moduleKinds(version, size);
  const data: number[] = [];
  for (let p = 0; p < kinds.length; p++) if (kinds[p] === DATA) data.push(p);
  const maskBits = MASKS.map((mask) => Uint8Array.from(data, (p) => maskBit(mask, p % size, Math.floor(p / size))));
  const layout = { kinds, data: Int32Array.from(data), maskBits };
  layouts.set(version, layout);
  return layout;
}

/**
 * The code's modules (no quiet zone), true for dark: equal to `encodeQR(text, 'raw', {ecc:
 * 'medium', border: 0, version})` for any text the library writes in byte mode, which is any text
 * with a line break (every payment payload). The version is the smallest that holds the text
 * unless the caller asks for a larger one (a QR-bill code may need to: cross-version.ts).
 */
export function qrMatrix(text: string, version = smallestVersion(Buffer.byteLength(text, 'utf8'))): boolean[][] {
  const drawn = encodeQR(text, 'raw', { ecc: 'medium', border: 0, encoding: 'byte', version, mask: 0 });
  const size = drawn.length;
  const { kinds, data, maskBits } = layoutOf(version, size);
  // The library scores masks on the code with format and version information left light.
  const base = new Uint8Array(size * size);
  for (const [y, row] of drawn.entries()) {
    for (let x = 0; x < size; x++) base[y * size + x] = kinds[y * size + x] === PATTERN && row[x] ? 1 : 0;
  }
  // The data bits, read back from under mask 0.
  const count = data.length;
  const bits = new Uint8Array(count);
  const mask0 = maskBits[0];
  for (let i = 0; i < count; i++) {
    const p = data[i];
    bits[i] = (drawn[Math.floor(p / size)][p % size] ? 1 : 0) ^ mask0[i];
  }
  let bestMask: Mask = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  const trial = new Uint8Array(size * size);
  for (const mask of MASKS) {
    const masked = maskBits[mask];
    trial.set(base);
    for (let i = 0; i < count; i++) trial[data[i]] = bits[i] ^ masked[i];
    const score = penalty(trial, size);
    if (score < bestScore) {
      bestScore = score;
      bestMask = mask;
    }
  }
  if (bestMask === 0) return drawn;
  writeFormat(drawn, bestMask);
  const best = maskBits[bestMask];
  for (let i = 0; i < count; i++) {
    const p = data[i];
    drawn[Math.floor(p / size)][p % size] = (bits[i] ^ best[i]) === 1;
  }
  return drawn;
}
