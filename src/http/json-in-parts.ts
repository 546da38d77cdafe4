/**
 * The JSON text of an answer that holds a long list (a batch's results), written as the list is
 * made: `const results = new JsonList(n)`, `results.push(item)` for each item, then
 * `answerText({ count, ..., results, ... })` for `reply.send`.
 *
 * Why not the list of every item, then one `JSON.stringify`: a batch of 1,000 answers in about
 * 700 kB. Made whole, its thousand results are all alive until the last is made, and each
 * young-generation collection during the batch copies them; written 64 at a time, a part's
 * results are garbage before the next part is made. That cost a batch of 1,000 3-8 % less server
 * CPU (docs/benchmarks.md, "A batch written as it is made"). And V8 keeps a string over 128 KiB
 * in its large-object space, on pages mapped for it and faulted in afresh each time, which Node
 * then copies into a buffer as large again to write it ("Batches in parts"). So a list longer
 * than SHORT is written PART items at a time, each part's text into a Buffer: no large string is
 * ever made. A shorter list is kept whole and written by a single `JSON.stringify`, which
 * measured cheaper there.
 *
 * The text is the one `JSON.stringify` writes of the answer with the list's items in its place,
 * keys in the answer's order (test/http/json-in-parts.test.ts).
 */

/** Items from which a list is written in parts (a batch result is about 700 bytes). */
export const SHORT = 256;
/** Items per part: each part's text stays well under the large-object size. */
const PART = 64;

/** A list of `length` items, given one at a time. */
export class JsonList {
  /** The items not yet written (every item, for a short list). */
  private items: unknown[] = [];
  /** The text of the items written so far, a part a Buffer, without the brackets and commas around. */
  private readonly parts: Buffer[] = [];

  constructor(private readonly length: number) {}

  push(item: unknown): void {
    this.items.push(item);
    if (this.length > SHORT && this.items.length === PART) this.writePart();
  }

  /** The whole list, when it is short: `answerText` writes it with the answer. */
  get whole(): unknown[] | undefined {
    return this.length > SHORT ? undefined : this.items;
  }

  /** The list's text, `[` and `]` included, in parts. */
  text(): Buffer[] {
    if (this.items.length > 0) this.writePart();
    const parts: Buffer[] = [OPEN];
    for (const [i, part] of this.parts.entries()) {
      if (i > 0) parts.push(COMMA);
      parts.push(part);
    }
    parts.push(CLOSE);
    return parts;
  }

  private writePart(): void {
    // An array's text without its brackets: a slice of it, not a copy.
    this.parts.push(Buffer.from(JSON.stringify(this.items).slice(1, -1)));
    this.items = [];
  }
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** JSON.stringify's text of `answer`, each JsonList in it written as the list of its items. */
export function answerText(answer: Record<string, unknown>): string | Buffer {
  const entries = Object.entries(answer);
  if (entries.every(([, value]) => !(value instanceof JsonList) || value.whole !== undefined)) {
    // A copy with the items in each list's place: the keys keep their order.
    const copy = { ...answer };
    for (const [key, value] of entries) if (value instanceof JsonList) copy[key] = value.whole;
    return JSON.stringify(copy);
  }
  const parts: Buffer[] = [];
  let before = '{';
  for (const [key, value] of entries) {
    const member = `${before}${JSON.stringify(key)}:`;
    if (value instanceof JsonList) parts.push(Buffer.from(member), ...value.text());
    else {
      const text = JSON.stringify(value);
      if (text === undefined) continue; // as JSON.stringify leaves out a member it cannot write
      parts.push(Buffer.from(member + text));
    }
    before = ',';
  }
  parts.push(Buffer.from(before === '{' ? '{}' : '}'));
  return Buffer.concat(parts);
}
