/**
 * The module matrix of a QR code at error correction M, exactly as @paulmillr/qr draws it (the
 * same version, the same mask by the same penalty), faster than the library's own mask search.
 *
 * Why this module recomputes the masks: measured gain ~5.6 ms → ~1.4 ms of CPU per SVG for a
 * QR-bill code (the library's matrix alone 5626 µs; this matrix and the SVG text 1447 µs;
 * docs/benchmarks.md, "Payment QR codes"), most of a `POST /v1/payment/qr` request's time.
 * The library tries its 8 masks by drawing the code 8 times over and scoring each with a
 * penalty written for clarity. Here the library draws the code once (a fixed mask and the
 * version that fits, so it searches neither), and the other 7 masks are derived from it: a data
 * module's value is the data bit XOR the mask's pattern, so the data bits are read back once
 * (from where ISO/IEC 18004 places them, as the library does) and each mask is a pass over flat
 * arrays, scored by the same four penalty rules (§7.8.3) as the library scores them.
 * test/transfer/qr-matrix.test.ts holds the result equal to the library's own search.
 *
 * Keep this mask arithmetic here, behind `qrMatrix`: nothing else in src/ should depend on the
 * library's internal drawing order.
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

/** The smallest version whose M capacity holds the payload in byte mode (the library's own choice). */
function versionFor(byteLength: number): number {
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
  let run = 1;
  let window = m[start];
  for (let i = 1; i < size; i++) {
    const v = m[start + i * step];
    if (v === m[start + (i - 1) * step]) run++;
    else {
      if (run >= 5) score += run - 2;
      run = 1;
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
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = y * size + x;
      const v = m[p];
      dark += v;
      // rule 2: each 2 × 2 block of one colour scores 3
      if (x + 1 < size && y + 1 < size && m[p + 1] === v && m[p + size] === v && m[p + size + 1] === v) score += 3;
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

/** The data modules in the order the library fills them: two columns at a time, up then down, from the right. */
function dataOrder(kinds: Uint8Array, size: number, visit: (x: number, y: number) => void): void {
  let dir = -1;
  let y = size - 1;
  for (let xOffset = size - 1; xOffset > 0; xOffset -= 2) {
    if (xOffset === 6) xOffset = 5; // the vertical timing pattern
    for (; ; y += dir) {
      for (let j = 0; j < 2; j++) {
        const x = xOffset - j;
        if (kinds[y * size + x] === DATA) visit(x, y);
      }
      if (y + dir < 0 || y + dir >= size) break;
    }
    dir = -dir;
  }
}

/**
 * The code's modules (no quiet zone), true for dark: equal to `encodeQR(text, 'raw', {ecc:
 * 'medium', border: 0})` for any text the library writes in byte mode, which is any text with a
 * line break (every payment payload).
 */
export function qrMatrix(text: string): boolean[][] {
  const version = versionFor(Buffer.byteLength(text, 'utf8'));
  const drawn = encodeQR(text, 'raw', { ecc: 'medium', border: 0, encoding: 'byte', version, mask: 0 });
  const size = drawn.length;
  const kinds = moduleKinds(version, size);
  // The library scores masks on the code with format and version information left light.
  const base = new Uint8Array(size * size);
  for (const [y, row] of drawn.entries()) {
    for (let x = 0; x < size; x++) base[y * size + x] = kinds[y * size + x] === PATTERN && row[x] ? 1 : 0;
  }
  // Data modules in drawing order, and their bits read back from under mask 0.
  const xs: number[] = [];
  const ys: number[] = [];
  const bits: number[] = [];
  dataOrder(kinds, size, (x, y) => {
    xs.push(x);
    ys.push(y);
    bits.push((drawn[y]?.[x] ? 1 : 0) ^ maskBit(0, x, y));
  });
  const count = xs.length;
  let bestMask: Mask = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  const trial = new Uint8Array(size * size);
  for (const mask of MASKS) {
    trial.set(base);
    for (let i = 0; i < count; i++) {
      const x = xs[i];
      const y = ys[i];
      trial[y * size + x] = bits[i] ^ maskBit(mask, x, y);
    }
    const score = penalty(trial, size);
    if (score < bestScore) {
      bestScore = score;
      bestMask = mask;
    }
  }
  if (bestMask === 0) return drawn;
  writeFormat(drawn, bestMask);
  for (let i = 0; i < count; i++) {
    const x = xs[i];
    const y = ys[i];
    drawn[y][x] = (bits[i] ^ maskBit(bestMask, x, y)) === 1;
  }
  return drawn;
}
