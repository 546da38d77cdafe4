import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../../support/app.ts';

test('without STRIPE_SECRET_KEY the card routes answer 503 with a clear error and the free service works', async () => {
  const service = await startService();
  const key = await service.newKey();
  const checkout = await service.call('/v1/card/checkout', { method: 'POST', json: { product: 'pack_1k' }, key });
  assert.equal(checkout.status, 503);
  assert.equal(checkout.body.error, 'card_payments_unavailable');
  assert.match(checkout.body.message, /STRIPE_SECRET_KEY/);
  for (const r of [
    await service.call('/v1/card/webhook', {
      method: 'POST',
      raw: '{"id":"evt_1"}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    }),
    await service.call('/v1/card/success?session_id=cs_test_1'),
  ]) {
    assert.equal(r.status, 503);
    assert.equal(r.body.error, 'card_payments_unavailable');
  }

  const validated = await service.call('/v1/iban/validate', { json: { iban: 'BE71 0961 2345 6769' }, key });
  assert.equal(validated.status, 200);
  const usage = await service.call('/v1/keys/usage', { key });
  assert.deepEqual(usage.body.claim.methods, ['email_code'], 'no pack is offered while no payment rail is on');
});
