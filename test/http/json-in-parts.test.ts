/** jsonInParts writes JSON.stringify's text, whatever the list's length and characters. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonInParts, SHORT } from '../../src/http/json-in-parts.ts';

const item = (i: number) => ({
  iban: `CH93 0076 2011 6238 5295 ${i}`,
  bank: { name: 'Bank Zürich AG — “Ω”', city: null },
  ok: i % 2 === 0,
});
const list = (n: number) => Array.from({ length: n }, (_, i) => item(i));
const serialize = jsonInParts('results');
const text = (answer: string | Buffer) => (typeof answer === 'string' ? answer : answer.toString('utf8'));

test('the text is JSON.stringify of the whole answer, keys in order, for short and long lists', () => {
  for (const n of [0, 1, SHORT, SHORT + 1, SHORT + 64, 1000]) {
    const answer = {
      count: n,
      by_country: { CH: 2, unknown: 1 },
      results: list(n),
      attribution: { text: 'Powered by mod97' },
    };
    assert.equal(text(serialize(answer)), JSON.stringify(answer), `${n} items`);
    assert.equal(
      text(serialize({ results: list(n) })),
      JSON.stringify({ results: list(n) }),
      `${n} items, nothing around`,
    );
  }
});

test('a long list is a Buffer of the UTF-8 bytes of the text; a short one stays a string', () => {
  const answer = { count: SHORT + 1, results: list(SHORT + 1) };
  const long = serialize(answer);
  assert.ok(Buffer.isBuffer(long));
  assert.equal(
    long.length,
    Buffer.byteLength(JSON.stringify(answer)),
    'as many bytes as the text, multi-byte characters included',
  );
  assert.equal(typeof serialize({ count: SHORT, results: list(SHORT) }), 'string');
});
