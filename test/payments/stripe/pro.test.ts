import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCardService } from '../../support/stripe/card-service.ts';

const VALID = 'BE71 0961 2345 6769';

test('Pro bought while presenting a free key makes that key Pro: 10,000 a month, no attribution', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key });

  const started = await card.checkout('pro', key);
  assert.equal(started.status, 201);
  const sent = card.api.created.at(-1)!;
  assert.equal(sent.mode, 'subscription');
  assert.equal((sent.line_items as any)[0].price_data.recurring.interval, 'month');
  assert.equal((sent.subscription_data as any).metadata.mod97_key_id, (sent.metadata as any).mod97_key_id);

  await card.deliver('checkout.session.completed', card.api.complete(started.body.session_id));
  const usage = await card.service.call('/v1/keys/usage', { key });
  assert.deepEqual(
    [usage.body.tier, usage.body.basis, usage.body.limit, usage.body.used],
    ['pro', 'monthly', 10000, 1],
  );
  const answer = await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.attribution, undefined);
  assert.equal(answer.headers['x-quota-limit'], '10000');

  const page = await card.success(started.body.session_id);
  assert.equal(page.status, 200);
  assert.equal(page.body.api_key, undefined, 'the buyer already holds this key; nothing is revealed');
  assert.equal(page.body.tier, 'pro');
});

test('a cancelled Pro subscription returns the key to the free tier it had', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const { sessionId } = await card.buy('pro', key);
  assert.equal((await card.service.call('/v1/keys/usage', { key })).body.tier, 'pro');

  const ended = await card.deliver('customer.subscription.deleted', card.api.subscription(sessionId, 'canceled'));
  assert.deepEqual(ended.body, { received: true });
  const usage = await card.service.call('/v1/keys/usage', { key });
  assert.deepEqual([usage.body.tier, usage.body.basis, usage.body.limit], ['anonymous', 'monthly', 25]);
  assert.ok(usage.body.claim, 'an anonymous key can be claimed again');
  const answer = await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key });
  assert.ok(answer.body.attribution, 'free answers carry attribution again');
});

test('an unpaid subscription falls back, and paying it brings Pro back', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const { sessionId } = await card.buy('pro', key);
  const tier = async () => (await card.service.call('/v1/keys/usage', { key })).body.tier;

  await card.deliver('customer.subscription.updated', card.api.subscription(sessionId, 'past_due'));
  assert.equal(await tier(), 'pro', 'past_due is Stripe retrying the card: Pro stays');
  await card.deliver('customer.subscription.updated', card.api.subscription(sessionId, 'unpaid'));
  assert.equal(await tier(), 'anonymous');
  await card.deliver('customer.subscription.updated', card.api.subscription(sessionId, 'active'));
  assert.equal(await tier(), 'pro');
});

test('Pro bought without a key creates a Pro key, shown once, that falls back to anonymous when Pro ends', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pro');
  const shown = await card.success(sessionId);
  assert.deepEqual([shown.body.tier, shown.body.basis, shown.body.limit], ['pro', 'monthly', 10000]);
  const key = shown.body.api_key as string;
  assert.equal((await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key })).status, 200);

  await card.deliver('customer.subscription.deleted', card.api.subscription(sessionId, 'canceled'));
  const usage = await card.service.call('/v1/keys/usage', { key });
  assert.deepEqual([usage.body.tier, usage.body.limit, usage.body.used], ['anonymous', 25, 1]);
});

test('a key that already has Pro cannot start a second subscription', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  await card.buy('pro', key);
  const r = await card.checkout('pro', key);
  assert.equal(r.status, 409);
  assert.equal(r.body.error, 'already_subscribed');
});

test('the end of an older subscription does not take Pro from a key that subscribed again', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const first = await card.buy('pro', key);
  await card.deliver('customer.subscription.deleted', card.api.subscription(first.sessionId, 'canceled'));
  const second = await card.buy('pro', key);
  assert.notEqual(second.session.subscription, first.session.subscription);
  await card.deliver('customer.subscription.updated', card.api.subscription(first.sessionId, 'incomplete_expired'));
  assert.equal((await card.service.call('/v1/keys/usage', { key })).body.tier, 'pro');
});

test('a key claimed by a pack (200 once) that takes Pro and cancels comes back claimed, lifetime, 200, with its usage', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const plan = async () => {
    const u = (await card.service.call('/v1/keys/usage', { key })).body;
    return [u.tier, u.basis, u.limit, u.used];
  };
  await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key });
  await card.buy('pack_1k', key);
  for (let i = 0; i < 3; i++)
    assert.equal((await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key })).status, 200);
  assert.deepEqual(await plan(), ['claimed', 'lifetime', 200, 3]);

  const { sessionId } = await card.buy('pro', key);
  assert.equal((await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key })).status, 200);
  assert.deepEqual((await plan()).slice(0, 3), ['pro', 'monthly', 10000]);

  card.service.clock.set('2026-12-02T00:00:00Z');
  await card.deliver('customer.subscription.deleted', card.api.subscription(sessionId, 'canceled'));
  assert.deepEqual(
    await plan(),
    ['claimed', 'lifetime', 200, 3],
    'the one-off grant, not 200 a month, and its usage kept',
  );
});
