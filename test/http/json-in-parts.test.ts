/** answerText writes JSON.stringify's text, whatever the list's length, place and characters. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerText, JsonList, SHORT } from '../../src/http/json-in-parts.ts';

const item = (i: number) => ({
  iban: `CH93 0076 2011 6238 5295 ${i}`,
  bank: { name: 'Bank Zürich AG — “Ω”', city: null },
  ok: i % 2 === 0,
});
const list = (n: number) => Array.from({ length: n }, (_, i) => item(i));
/** The list as the batch route gives it: its length first, then each item in turn. */
const given = (n: number) => {
  const results = new JsonList(n);
  for (const one of list(n)) results.push(one);
  return results;
};
const text = (answer: string | Buffer) => (typeof answer === 'string' ? answer : answer.toString('utf8'));

test('the text is JSON.stringify of the whole answer, keys in order, for short and long lists', () => {
  for (const n of [0, 1, SHORT, SHORT + 1, SHORT + 63, SHORT + 64, SHORT + 65, 1000]) {
    const byCountry = { CH: 2, unknown: 1 };
    const attribution = { text: 'Powered by mod97' };
    const expected = JSON.stringify({ count: n, by_country: byCountry, results: list(n), attribution });
    const answer = { count: n, by_country: byCountry, results: given(n), attribution };
    assert.equal(text(answerText(answer)), expected, `${n} items`);
    assert.equal(
      text(answerText({ results: given(n) })),
      JSON.stringify({ results: list(n) }),
      `${n} items, nothing around`,
    );
    assert.equal(
      text(answerText({ results: given(n), missing: undefined, count: n })),
      JSON.stringify({ results: list(n), missing: undefined, count: n }),
      `${n} items first, and a member JSON leaves out`,
    );
  }
});

test('a long list is a Buffer of the UTF-8 bytes of the text; a short one stays a string', () => {
  const long = answerText({ count: SHORT + 1, results: given(SHORT + 1) });
  assert.ok(Buffer.isBuffer(long));
  assert.equal(
    long.length,
    Buffer.byteLength(JSON.stringify({ count: SHORT + 1, results: list(SHORT + 1) })),
    'as many bytes as the text, multi-byte characters included',
  );
  assert.equal(typeof answerText({ count: SHORT, results: given(SHORT) }), 'string');
});
