import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signedEvent } from '../../support/stripe/events.ts';
import { startCardService } from '../../support/stripe/card-service.ts';

test('a delivery with a bad signature is refused with 400 and changes nothing', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const started = await card.checkout('pro', key);
  const completed = card.api.complete(started.body.session_id);

  const forged = signedEvent('checkout.session.completed', completed, 'whsec_not_the_real_secret');
  const tampered = signedEvent('checkout.session.completed', completed, card.webhookSecret);
  tampered.payload = tampered.payload.replace('"paid"', '"paid" ');
  const unsigned = { ...forged, headers: { 'content-type': 'application/json' } };
  for (const delivery of [forged, tampered, unsigned]) {
    const r = await card.post(delivery);
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'invalid_signature');
  }
  assert.equal((await card.service.call('/v1/keys/usage', { key })).body.tier, 'anonymous');
  assert.equal((await card.success(started.body.session_id)).status, 202);
});

test('a replayed event is acknowledged as a duplicate and changes nothing', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const { sessionId } = await card.buy('pro', key);
  const unpaid = signedEvent(
    'customer.subscription.updated',
    card.api.subscription(sessionId, 'unpaid'),
    card.webhookSecret,
  );
  assert.deepEqual((await card.post(unpaid)).body, { received: true });
  await card.deliver('customer.subscription.updated', card.api.subscription(sessionId, 'active'));
  assert.equal((await card.service.call('/v1/keys/usage', { key })).body.tier, 'pro');

  const replay = await card.post(unpaid);
  assert.equal(replay.status, 200);
  assert.deepEqual(replay.body, { received: true, duplicate: true });
  assert.equal(
    (await card.service.call('/v1/keys/usage', { key })).body.tier,
    'pro',
    'the old "unpaid" must not end Pro again',
  );
});

test('the same checkout completed twice under different event ids creates one key', async () => {
  const card = await startCardService();
  const { sessionId, session } = await card.buy('pack_1k');
  assert.deepEqual((await card.deliver('checkout.session.async_payment_succeeded', session)).body, { received: true });
  const key = (await card.success(sessionId)).body.api_key as string;
  await card.service.call('/v1/iban/validate', { json: { iban: 'BE71096123456769' }, key });
  assert.equal((await card.service.call('/v1/keys/usage', { key })).body.remaining, 999);
});

test('an event that fails to process is answered 500 and processed when Stripe retries it', async () => {
  const card = await startCardService();
  const started = await card.checkout('pro');
  const completed = card.api.complete(started.body.session_id);
  const broken = signedEvent(
    'checkout.session.completed',
    { ...completed, subscription: null },
    card.webhookSecret,
    'evt_test_retry',
  );
  const first = await card.post(broken);
  assert.equal(first.status, 500);
  assert.equal((await card.post(broken)).status, 500, 'a failed event is not recorded as seen');
  assert.equal((await card.success(started.body.session_id)).status, 202);

  const fixed = await card.post(
    signedEvent('checkout.session.completed', completed, card.webhookSecret, 'evt_test_retry'),
  );
  assert.deepEqual(fixed.body, { received: true });
  assert.equal((await card.success(started.body.session_id)).body.tier, 'pro');
});

test('events about other products or unrelated kinds are acknowledged and ignored', async () => {
  const card = await startCardService();
  const r = await card.deliver('checkout.session.completed', {
    id: 'cs_test_other',
    object: 'checkout.session',
    payment_status: 'paid',
    metadata: { shop: 'other' },
  });
  assert.deepEqual(r.body, { received: true });
  assert.deepEqual((await card.deliver('invoice.paid', { id: 'in_test_1', object: 'invoice' })).body, {
    received: true,
  });
  assert.equal((await card.success('cs_test_other')).status, 404);
});

test('without STRIPE_WEBHOOK_SECRET the service does not start: no payment could be credited', async () => {
  await assert.rejects(
    startCardService({ STRIPE_WEBHOOK_SECRET: '' }),
    /STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not/,
  );
});
