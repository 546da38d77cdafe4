/**
 * For `mod97 batch`: the last row of the file that holds each IBAN, so that an IBAN's answer is
 * kept only until that row is written. A file can hold millions of distinct IBANs, so the rows
 * are kept by a 64-bit hash of each IBAN in typed arrays (12 bytes a slot, outside V8's heap),
 * not in a Map of strings, which took about 100 bytes of V8's heap an IBAN: a million distinct
 * IBANs did not fit in a 40 MB heap (docs/benchmarks.md, "Command line").
 *
 * Two IBANs whose hashes are equal would share a slot and its later row: an answer would then be
 * kept longer than needed, never dropped before its own last row, and the count of requests
 * printed before sending would be one short. At a million IBANs the odds of one such pair are
 * about 3 in 100 million.
 */
import { hash } from 'node:crypto';

const EMPTY = 0;

export class LastRows {
  /** Distinct hashes set so far: the file's distinct IBANs. */
  size = 0;
  private slots = 1 << 12;
  /** `slots - 1`, as the hashes' type: a hash's first slot is its low bits. */
  private mask = BigInt(this.slots - 1);
  private hashes = new BigUint64Array(this.slots);
  /** Row numbers start at 1, so 0 marks a free slot. */
  private rows = new Uint32Array(this.slots);

  /** Row `row` holds `key`; rows come in file order, so the last call for a key names its last row. */
  set(key: string, row: number): void {
    if ((this.size + 1) * 2 > this.slots) this.grow();
    const h = hashOf(key);
    const at = this.find(h);
    if (this.rows[at] === EMPTY) this.size++;
    this.hashes[at] = h;
    this.rows[at] = row;
  }

  /** The last row holding `key`, or undefined when no row does. */
  get(key: string): number | undefined {
    const row = this.rows[this.find(hashOf(key))];
    return row === EMPTY ? undefined : row;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The slot of hash `h`: where it is, or the free slot where it goes (linear probing). */
  private find(h: bigint): number {
    const mask = this.slots - 1;
    let at = Number(h & this.mask);
    while (this.rows[at] !== EMPTY && this.hashes[at] !== h) at = (at + 1) & mask;
    return at;
  }

  private grow(): void {
    const { hashes, rows } = this;
    this.slots *= 2;
    this.mask = BigInt(this.slots - 1);
    this.hashes = new BigUint64Array(this.slots);
    this.rows = new Uint32Array(this.slots);
    for (let i = 0; i < rows.length; i++) {
      if (rows[i] === EMPTY) continue;
      const at = this.find(hashes[i]);
      this.hashes[at] = hashes[i];
      this.rows[at] = rows[i];
    }
  }
}

/** The first 8 bytes of the key's SHA-256: well spread, so probing stays short. */
const hashOf = (key: string): bigint => hash('sha256', key, 'buffer').readBigUInt64LE(0);
