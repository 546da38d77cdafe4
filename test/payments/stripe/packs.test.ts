import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PACKS } from '../../../src/plans.ts';
import { startCardService } from '../../support/stripe/card-service.ts';

const VALID = 'BE71 0961 2345 6769';

test('a pack checkout opens a Stripe payment session for the catalogue price, with no secret in its metadata', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const r = await card.checkout('pack_5k', key);
  assert.equal(r.status, 201);
  assert.match(r.body.checkout_url, /^https:\/\/checkout\.stripe\.com\//);
  assert.match(r.body.session_id, /^cs_test_/);
  assert.ok(Date.parse(r.body.expires_at) > Date.now());
  const sent = card.api.created.at(-1)!;
  assert.equal(sent.mode, 'payment');
  assert.deepEqual((sent.line_items as any)[0].price_data.unit_amount, String(PACKS[1].priceUsd * 100));
  assert.equal((sent.metadata as any).mod97_product, 'pack_5k');
  assert.equal(sent.success_url, `${card.service.url}/v1/card/success?session_id={CHECKOUT_SESSION_ID}`);
  assert.doesNotMatch(JSON.stringify(sent), /ifk_/);
});

test('a configured Stripe price id is used instead of the inline price', async () => {
  const card = await startCardService({ STRIPE_PRICE_PACK_1K: 'price_1kPack' });
  assert.equal((await card.checkout('pack_1k')).status, 201);
  assert.deepEqual((card.api.created.at(-1)!.line_items as any)[0], { price: 'price_1kPack', quantity: '1' });
});

test('an unknown product is refused before Stripe is called', async () => {
  const card = await startCardService();
  const r = await card.checkout('pack_2k');
  assert.equal(r.status, 400);
  assert.equal(r.body.error, 'invalid_request');
  assert.equal(card.api.created.length, 0);
});

test('Stripe failing to open a checkout is a 502 that says nothing was charged', async () => {
  const card = await startCardService();
  card.api.failNext(400);
  const r = await card.checkout('pack_1k');
  assert.equal(r.status, 502);
  assert.equal(r.body.error, 'payments_unavailable');
  assert.doesNotMatch(r.text, /unknown error occurred/);
});

test('a paid pack gives a credits key with the pack balance, shown once on the success page', async () => {
  const card = await startCardService();
  const started = await card.checkout('pack_1k');
  const pending = await card.success(started.body.session_id);
  assert.equal(pending.status, 202, 'before the webhook the payment is still being confirmed');
  assert.match(pending.body.message, /reload/i);
  assert.equal(pending.headers['retry-after'], '3');

  await card.deliver('checkout.session.completed', card.api.complete(started.body.session_id));
  const shown = await card.success(started.body.session_id);
  assert.equal(shown.status, 200);
  assert.equal(shown.headers['cache-control'], 'no-store');
  assert.equal(shown.headers['referrer-policy'], 'no-referrer');
  assert.match(shown.body.api_key, /^ifk_[0-9a-f]{64}$/);
  assert.deepEqual([shown.body.tier, shown.body.basis, shown.body.limit], ['credits', 'credits', 1000]);

  const again = await card.success(started.body.session_id);
  assert.equal(again.status, 410);
  assert.equal(again.body.error, 'key_already_shown');
  assert.match(again.body.message, /\/v1\/keys\/rotate/);
  assert.doesNotMatch(again.text, /ifk_[0-9a-f]{64}/);

  const usage = await card.service.call('/v1/keys/usage', { key: shown.body.api_key });
  assert.deepEqual(
    [usage.body.tier, usage.body.basis, usage.body.limit, usage.body.used, usage.body.remaining],
    ['credits', 'credits', 1000, 0, 1000],
  );
});

test('credits are drawn by validate and batch, and a refused call gives them back', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pack_1k');
  const key = (await card.success(sessionId)).body.api_key as string;

  const one = await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key });
  assert.equal(one.status, 200);
  assert.equal(one.body.attribution, undefined, 'paid keys carry no attribution');
  assert.equal(one.headers['x-quota-remaining'], '999');
  const three = await card.service.call('/v1/iban/batch', { json: { ibans: [VALID, VALID, 'XX00'] }, key });
  assert.equal(three.status, 200);
  assert.equal(three.headers['x-quota-remaining'], '996');
  const refused = await card.service.call('/v1/iban/batch', { json: { ibans: [VALID, 42] }, key });
  assert.equal(refused.status, 400);
  assert.equal(refused.headers['x-quota-remaining'], '996');
  assert.equal(refused.headers['x-quota-limit'], '1000');
  assert.equal((await card.service.call('/v1/keys/usage', { key })).body.used, 4);
});

test('a pack bought while presenting an anonymous key claims that key: 200 once, counted from zero', async () => {
  const card = await startCardService();
  const anonymous = await card.service.newKey();
  for (let i = 0; i < 3; i++) await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key: anonymous });
  assert.equal((await card.service.call('/v1/keys/usage', { key: anonymous })).body.used, 3);

  const { sessionId } = await card.buy('pack_5k', anonymous);
  const usage = await card.service.call('/v1/keys/usage', { key: anonymous });
  assert.deepEqual(
    [usage.body.tier, usage.body.basis, usage.body.limit, usage.body.used],
    ['claimed', 'lifetime', 200, 0],
  );
  assert.equal(usage.body.claim, undefined);

  const pack = await card.success(sessionId);
  assert.notEqual(pack.body.api_key, anonymous, 'the pack itself is a separate key');
  assert.deepEqual([pack.body.tier, pack.body.limit], ['credits', 5000]);
});

test('the success page speaks HTML to browsers', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pack_25k');
  const page = await card.success(sessionId, 'text/html,application/xhtml+xml');
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.text, /<code>ifk_[0-9a-f]{64}<\/code>/);
  const again = await card.success(sessionId, 'text/html');
  assert.equal(again.status, 410);
  assert.match(again.text, /already shown/);
  assert.doesNotMatch(again.text, /ifk_[0-9a-f]{64}/);
});

test('a session id the service never started is 404', async () => {
  const card = await startCardService();
  const r = await card.success('cs_test_unknown');
  assert.equal(r.status, 404);
  assert.equal(r.body.error, 'checkout_not_found');
});
