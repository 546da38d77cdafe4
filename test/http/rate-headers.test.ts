/**
 * The IETF rate-limit headers next to X-Quota-* (keyed and trial answers, refusals included),
 * Retry-After on every 429, and their declaration in /openapi.json.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import type { Reply } from '../support/http.ts';

const IBAN = 'DE89370400440532013000';
// The test clock stands at 2026-11-21T12:00:00Z.
const UNTIL_NEXT_DAY = 12 * 3600;
const UNTIL_NEXT_MONTH = 9 * 86_400 + UNTIL_NEXT_DAY;

const rate = (r: Reply) => [
  r.headers['ratelimit-limit'],
  r.headers['ratelimit-remaining'],
  r.headers['ratelimit-reset'],
];

describe('RateLimit-* headers', async () => {
  const svc = await startService();

  test('a keyed answer carries them next to X-Quota-*, with the seconds until the monthly reset', async () => {
    const key = await svc.newKey('127.0.10.1');
    const ok = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, key, from: '127.0.10.1' });
    assert.equal(ok.status, 200);
    assert.deepEqual(rate(ok), ['25', '24', String(UNTIL_NEXT_MONTH)]);
    assert.equal(ok.headers['x-quota-remaining'], '24');
    // A refusal shows the balance after its refund.
    const refused = await svc.call('/v1/iban/validate', { json: { iban: 42 }, key, from: '127.0.10.1' });
    assert.equal(refused.status, 400);
    assert.deepEqual(rate(refused), ['25', '24', String(UNTIL_NEXT_MONTH)]);
    const usage = await svc.call('/v1/keys/usage', { key });
    assert.deepEqual(rate(usage), ['25', '24', String(UNTIL_NEXT_MONTH)]);
    // The reset counts down with the clock.
    svc.clock.advance(90_000);
    const later = await svc.call('/v1/keys/usage', { key });
    assert.equal(later.headers['ratelimit-reset'], String(UNTIL_NEXT_MONTH - 90));
    svc.clock.advance(-90_000);
  });

  test('a quota-exhausted 402 shows 0 remaining and when it resets', async () => {
    const key = await svc.newKey('127.0.10.2');
    const full = await svc.call('/v1/iban/batch', { json: { ibans: Array(25).fill(IBAN) }, key, from: '127.0.10.2' });
    assert.equal(full.status, 200);
    const refused = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, key, from: '127.0.10.2' });
    assert.equal(refused.status, 402);
    assert.deepEqual(rate(refused), ['25', '0', String(UNTIL_NEXT_MONTH)]);
  });

  test('a balance that never resets (credits) has no RateLimit-Reset', async () => {
    const { secret } = await svc.services.keys.insert({
      tier: 'credits',
      network: '127.0.10.3',
      emailHash: null,
      alertBorn: false,
      limit: 1000,
      lifetimePeriod: 'credits:test:rate',
    });
    const r = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, key: secret, from: '127.0.10.3' });
    assert.equal(r.status, 200);
    assert.deepEqual(rate(r), ['1000', '999', undefined]);
  });

  test("no-key trial answers show the trial's balance and the seconds until the next UTC day", async () => {
    const from = '127.0.10.4';
    const first = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from });
    assert.equal(first.status, 200);
    assert.deepEqual(rate(first), ['25', '24', String(UNTIL_NEXT_DAY)]);
    assert.equal(first.headers['x-quota-used'], undefined, 'X-Quota-* stay for keys');
    // Refused and refunded: the balance after the refund.
    const refused = await svc.call('/v1/iban/validate', { json: { iban: 42 }, from });
    assert.deepEqual([refused.status, ...rate(refused)], [400, '25', '24', String(UNTIL_NEXT_DAY)]);
    const usage = await svc.call('/v1/keys/usage', { from });
    assert.deepEqual(rate(usage), ['25', '24', String(UNTIL_NEXT_DAY)]);
    for (let i = 0; i < 24; i++) await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from });
    const exhausted = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from });
    assert.equal(exhausted.status, 402);
    assert.equal(exhausted.body.cause.reason, 'trial_exhausted');
    assert.deepEqual(rate(exhausted), ['25', '0', String(UNTIL_NEXT_DAY)]);
  });

  test('an answer that shows no balance has none (a no-key batch refused for want of a key)', async () => {
    const r = await svc.call('/v1/iban/batch', { json: { ibans: [IBAN] }, from: '127.0.10.5' });
    assert.equal(r.status, 402);
    assert.deepEqual(rate(r), [undefined, undefined, undefined]);
  });
});

test('every 429 carries Retry-After: the seconds until the per-day limit lifts', async () => {
  const svc = await startService();
  const from = '127.0.10.6';
  for (let i = 0; i < 3; i++) await svc.newKey(from);
  const refused = await svc.call('/v1/keys/generate', { method: 'POST', from });
  assert.deepEqual([refused.status, refused.body.error], [429, 'key_creation_limit']);
  assert.equal(refused.headers['retry-after'], String(UNTIL_NEXT_DAY));
  svc.clock.advance(UNTIL_NEXT_DAY * 1000 - 1500);
  const later = await svc.call('/v1/keys/generate', { method: 'POST', from });
  assert.equal(later.headers['retry-after'], '2', 'rounded up, so that waiting that long is enough');
  svc.clock.advance(1500);
  assert.equal((await svc.call('/v1/keys/generate', { method: 'POST', from })).status, 201);
});

test('/openapi.json declares the balance headers on keyed routes and Retry-After on 429s', async () => {
  const svc = await startService();
  const doc = (await svc.call('/openapi.json')).body;
  const names = (path: string, method: string, status: string) =>
    Object.keys(doc.paths[path][method].responses[status].headers ?? {});
  for (const [path, method, status] of [
    ['/v1/iban/validate', 'post', '200'],
    ['/v1/iban/validate', 'post', '402'],
    ['/v1/iban/extract', 'post', '200'],
    ['/v1/keys/usage', 'get', '200'],
  ]) {
    const declared = names(path!, method!, status!);
    for (const h of ['X-Quota-Used', 'X-Quota-Remaining', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
      assert.ok(declared.includes(h), `${method} ${path} ${status}: ${h}`);
  }
  const retry = doc.paths['/v1/keys/generate'].post.responses['429'].headers['Retry-After'];
  assert.deepEqual([retry.required, retry.schema.type], [true, 'integer']);
  assert.deepEqual(names('/v1/keys/generate', 'post', '201'), [], 'generate takes no key');
});
