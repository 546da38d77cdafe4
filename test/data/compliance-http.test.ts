/** POST /v1/iban/compliance through HTTP: a subject with no country is 400 and refunded. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';

/** A service of its own per test (it closes itself when the test ends) and a fresh key. */
async function service() {
  const svc = await startService();
  return { svc, key: await svc.newKey() };
}

test('an IBAN naming no country is 400 invalid_request, refunded, with the validation errors', async () => {
  const { svc, key } = await service();
  for (const iban of ['', 'XX', '12 34']) {
    const r = await svc.call('/v1/iban/compliance', { key, json: { iban } });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_request'], JSON.stringify(iban));
    assert.match(r.body.message, /names no country/);
    assert.ok(Array.isArray(r.body.iban_errors) && r.body.iban_errors.length > 0);
    assert.equal(r.headers['x-quota-used'], '0', 'refunded');
  }
});

test('a BIC with no valid country is 400 invalid_bic (country_code), refunded', async () => {
  const { svc, key } = await service();
  const r = await svc.call('/v1/iban/compliance', { key, json: { bic: 'DEUTXXFF' } });
  assert.deepEqual([r.status, r.body.error, r.body.reason], [400, 'invalid_bic', 'country_code']);
  assert.equal(r.headers['x-quota-used'], '0');
});

test('an invalid IBAN whose country is known is still answered and charged, screened by that country', async () => {
  const { svc, key } = await service();
  const r = await svc.call('/v1/iban/compliance', { key, json: { iban: 'IR00 0570 0299 7160 1460 6410 01' } });
  assert.equal(r.status, 200);
  assert.deepEqual([r.body.subject.country, r.body.subject.iban_valid, r.body.level], ['IR', false, 'high']);
  assert.ok(r.body.country_lists.some((l: { listed: boolean }) => l.listed));
  assert.equal(r.headers['x-quota-used'], '1');
});
