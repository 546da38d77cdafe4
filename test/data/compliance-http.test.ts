/** POST /v1/iban/compliance through HTTP: subjects with no country, or a malformed BIC. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';

/** A service of its own per test (it closes itself when the test ends) and a fresh key. */
async function service() {
  const svc = await startService();
  return { svc, key: await svc.newKey() };
}

test('an IBAN naming no country is answered and charged (docs/api.md, compliance), high risk, with nothing claimed of a country', async () => {
  const { svc, key } = await service();
  for (const [i, iban] of ['', 'XX', '12 34'].entries()) {
    const r = await svc.call('/v1/iban/compliance', { key, json: { iban } });
    assert.equal(r.status, 200, JSON.stringify(iban));
    assert.deepEqual([r.body.subject.country, r.body.sepa, r.body.level], [null, null, 'high']);
    assert.ok(r.body.country_lists.every((l: { listed: unknown }) => l.listed === null));
    assert.ok(r.body.flags.some((f: { code: string }) => f.code === 'country_not_identified'));
    assert.equal(r.headers['x-quota-used'], String(i + 1), 'charged');
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
