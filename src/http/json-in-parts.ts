/**
 * JSON.stringify's text of an answer, written in parts when it holds a long list (a batch's
 * results), for `reply.send`: `jsonInParts('results')(answer)`.
 *
 * Why not one `JSON.stringify` of a long list: V8 keeps a string over 128 KiB in its
 * large-object space, on pages mapped for it and faulted in afresh each time, and Node copies
 * such a string into a buffer as large again to write it. A batch of 1,000 answers in about
 * 700 kB, so both happen on every call, and its IBANs cost more each than those of a batch of
 * 100 (docs/benchmarks.md, "Batches in parts"). So a list longer than SHORT is written in parts
 * of PART items, each a small string, copied once into a Buffer of the exact size: no large
 * string is ever made. A shorter one is a single `JSON.stringify`, which measured cheaper there.
 *
 * The text is the one `JSON.stringify(answer)` writes, keys in the answer's order
 * (test/http/json-in-parts.test.ts).
 */

/** Items from which a list is written in parts (a batch result is about 700 bytes). */
export const SHORT = 256;
/** Items per part: each part's text stays well under the large-object size. */
const PART = 64;

export function jsonInParts(name: string): (answer: Record<string, unknown>) => string | Buffer {
  return (answer) => {
    const list = answer[name];
    if (!Array.isArray(list) || list.length <= SHORT) return JSON.stringify(answer);
    // The keys before the list and after it, in the answer's order.
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    let side = before;
    for (const [key, value] of Object.entries(answer)) {
      if (key === name) side = after;
      else side[key] = value;
    }
    const opening = JSON.stringify(before);
    const closing = JSON.stringify(after);
    const parts = [`${opening.length > 2 ? `${opening.slice(0, -1)},` : '{'}${JSON.stringify(name)}:[`];
    for (let i = 0; i < list.length; i += PART) {
      if (i > 0) parts.push(',');
      // An array's text without its brackets: a slice of it, not a copy.
      parts.push(JSON.stringify(list.slice(i, i + PART)).slice(1, -1));
    }
    parts.push(closing.length > 2 ? `],${closing.slice(1)}` : ']}');
    let bytes = 0;
    for (const part of parts) bytes += Buffer.byteLength(part);
    const text = Buffer.allocUnsafeSlow(bytes);
    let at = 0;
    for (const part of parts) at += text.write(part, at);
    return text;
  };
}
