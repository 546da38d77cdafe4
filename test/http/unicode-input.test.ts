import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

describe('nothing is folded from Unicode look-alikes', () => {
  test('a BIC with a character outside ASCII letters and digits is 400 invalid_bic', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    assert.equal((await svc.call('/v1/bic/NDEAFIHH', { key })).status, 200, 'the ASCII form is known');
    // "ﬁ" (U+FB01) upper-cases to "FI"; fullwidth and Cyrillic letters look like ASCII ones.
    for (const bic of ['NDEA\ufb01HH', 'ＮＤＥＡFIHH', 'NDЕAFIHH']) {
      const r = await svc.call(`/v1/bic/${encodeURIComponent(bic)}`, { key });
      assert.equal(r.status, 400, `${bic}: ${r.text}`);
      assert.equal(r.body.error, 'invalid_bic');
      assert.equal(r.body.reason, 'characters');
      const compliance = await svc.call('/v1/iban/compliance', { key, json: { bic } });
      assert.equal(compliance.status, 400, `${bic}: ${compliance.text}`);
      assert.equal(compliance.body.error, 'invalid_bic');
    }
    assert.equal((await svc.call('/v1/bic/NDEA%20FIHH', { key })).status, 200, 'spaces are still ignored');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 2, 'refusals are refunded');
  });

  test('an IBAN with look-alikes is valid: false with invalid_characters', async () => {
    const svc = await startService();
    for (const iban of ['DE89 3704 0044 0532 0130 0\ufb00', 'ＤＥ89370400440532013000', 'DЕ89370400440532013000']) {
      const r = await svc.call('/v1/iban/validate', { json: { iban } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.valid, false);
      assert.ok(
        r.body.errors.some((e: { code: string }) => e.code === 'invalid_characters'),
        `${iban}: ${JSON.stringify(r.body.errors)}`,
      );
    }
  });
});
