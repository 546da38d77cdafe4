/** GET /v1/keys/usage/daily and POST /v1/card/cancel, over real sockets. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';
import { startCardService } from '../support/stripe/card-service.ts';

const IBAN = 'DE89370400440532013000';

test('daily usage counts charged calls per UTC day, not refused ones, and lists every day of the month', async () => {
  const svc = await startService();
  const key = await svc.newKey();
  svc.clock.set('2026-11-02T10:00:00Z');
  await svc.call('/v1/iban/batch', { key, json: { ibans: [IBAN, IBAN, IBAN] } });
  svc.clock.set('2026-11-03T23:59:00Z');
  assert.equal((await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })).status, 200);
  // Refused and refunded: not a charged call.
  assert.equal(
    (await svc.call('/v1/iban/validate', { key, raw: 'not json', headers: { 'content-type': 'application/json' } }))
      .status,
    400,
  );
  svc.clock.set('2026-11-05T08:00:00Z');
  const r = await svc.call('/v1/keys/usage/daily', { key });
  assert.equal(r.status, 200);
  assert.equal(r.body.basis, 'monthly');
  assert.deepEqual([r.body.from, r.body.to, r.body.total], ['2026-11-01', '2026-11-05', 4]);
  assert.deepEqual(
    r.body.days.map((d: { used: number }) => d.used),
    [0, 3, 1, 0, 0],
  );
  const usage = await svc.call('/v1/keys/usage', { key });
  assert.equal(usage.body.used, r.body.total);
  assert.equal((await svc.call('/v1/keys/usage/daily')).body.error, 'missing_api_key');
});

test('a store that cannot write the day counts leaves the calls and their quota untouched', async () => {
  const svc = await startService();
  const key = await svc.newKey();
  svc.services.store.addDailyUsage = async () => {
    throw new Error('disk full');
  };
  assert.equal((await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })).status, 200);
  const daily = await svc.call('/v1/keys/usage/daily', { key });
  assert.equal(daily.status, 200);
  assert.equal(daily.body.total, 0);
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1);
  assert.ok(svc.logs.some((l) => l.includes('daily usage not written')));
});

test('cancel: Pro stops renewing at the period end; a key without a subscription is 409', async () => {
  const card = await startCardService();
  const free = await card.service.newKey();
  const refused = await card.service.call('/v1/card/cancel', { method: 'POST', key: free });
  assert.deepEqual([refused.status, refused.body.error], [409, 'not_subscribed']);
  assert.equal((await card.service.call('/v1/card/cancel', { method: 'POST' })).status, 401);

  const { sessionId, session } = await card.buy('pro');
  const pro = (await card.success(sessionId)).body.api_key as string;
  const r = await card.service.call('/v1/card/cancel', { method: 'POST', key: pro });
  assert.equal(r.status, 200);
  assert.equal(r.body.cancel_at_period_end, true);
  assert.match(r.body.ends_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(card.api.subscriptionUpdates, [
    { id: session.subscription, params: { cancel_at_period_end: 'true' } },
  ]);
  // Still Pro until Stripe ends the subscription.
  assert.equal((await card.service.call('/v1/keys/usage', { key: pro })).body.tier, 'pro');
});

test('cancel: Stripe refusing is 502 and the key stays Pro', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pro');
  const pro = (await card.success(sessionId)).body.api_key as string;
  card.api.failNext(400);
  const r = await card.service.call('/v1/card/cancel', { method: 'POST', key: pro });
  assert.deepEqual([r.status, r.body.error], [502, 'payments_unavailable']);
  assert.deepEqual(card.api.subscriptionUpdates, []);
  assert.equal((await card.service.call('/v1/keys/usage', { key: pro })).body.tier, 'pro');
});
