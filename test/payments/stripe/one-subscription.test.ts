/**
 * One key, one Pro subscription (docs/api.md, "POST /v1/card/checkout", "POST /v1/card/cancel",
 * "Pro lifecycle"): a second Pro checkout is refused while one is open or Pro is on, even when
 * both are sent at once; and a second subscription completed anyway (opened before this rule, or
 * through a race) is never left billing a key that neither has Pro from it nor can cancel it.
 * On SQLite and, when MOD97_TEST_POSTGRES_URL is set, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pgUrl, throwawaySchema } from '../../support/pg.ts';
import { type CardService, startCardService } from '../../support/stripe/card-service.ts';

const VALID = 'BE71 0961 2345 6769';

const plan = async (card: CardService, key: string) => {
  const u = (await card.service.call('/v1/keys/usage', { key })).body;
  return [u.tier, u.limit];
};

/** A key that served one call, as the buyer's is. */
async function usedKey(card: CardService): Promise<string> {
  const key = await card.service.newKey();
  assert.equal((await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key })).status, 200);
  return key;
}

/**
 * Two Pro subscriptions on `key`, both paid: the second from a twin of the first checkout, opened
 * at Stripe without asking the service (as a second tab did before one checkout was enforced).
 */
async function twoSubscriptions(card: CardService, key: string) {
  const first = await card.checkout('pro', key);
  assert.equal(first.status, 201);
  const twin = card.api.open(card.api.created.at(-1) ?? {});
  const a = first.body.session_id as string;
  await card.deliver('checkout.session.completed', card.api.complete(a));
  await card.deliver('checkout.session.completed', card.api.complete(twin));
  const subscription = (session: string) => String(card.api.sessions.get(session)?.subscription);
  return { a, b: twin, subA: subscription(a), subB: subscription(twin) };
}

const cancel = (card: CardService, key: string) => card.service.call('/v1/card/cancel', { method: 'POST', key });

function suite(engine: string, env: () => Record<string, string>, skip: string | false) {
  describe(engine, { skip }, () => {
    test('a second Pro checkout while one is open is 409 checkout_already_open, pointing to the open one; Stripe opens no second', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      const first = await card.checkout('pro', key);
      assert.equal(first.status, 201);

      const second = await card.checkout('pro', key);
      assert.equal(second.status, 409, second.text);
      assert.equal(second.body.error, 'checkout_already_open');
      assert.equal(second.body.checkout_url, first.body.checkout_url, 'the buyer can finish the open one');
      assert.equal(second.body.session_id, first.body.session_id);
      // When it lapses, on the service's clock (the test's, here, not Stripe's).
      assert.equal(Date.parse(second.body.expires_at), card.service.clock() + 24 * 3_600_000);
      assert.match(second.body.message, /already open/);
      assert.equal(card.api.created.length, 1, 'no second session at Stripe');

      // Paid: the key is Pro, and Pro cannot be bought for it again.
      await card.deliver('checkout.session.completed', card.api.complete(first.body.session_id));
      assert.deepEqual(await plan(card, key), ['pro', 10_000]);
      const third = await card.checkout('pro', key);
      assert.deepEqual([third.status, third.body.error], [409, 'already_subscribed']);
      assert.equal(card.api.created.length, 1);
    });

    test('five Pro checkouts sent at once for one key: one opens, the others are 409', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => card.checkout('pro', key)));
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [201, 409, 409, 409, 409],
        answers.map((a) => a.text).join('\n'),
      );
      for (const refused of answers.filter((a) => a.status === 409))
        assert.equal(refused.body.error, 'checkout_already_open');
      assert.equal(card.api.created.length, 1);
    });

    test('an abandoned Pro checkout holds the key until it expires; then a new one opens', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      assert.equal((await card.checkout('pro', key)).status, 201);
      card.service.clock.advance(23 * 3_600_000);
      assert.equal((await card.checkout('pro', key)).status, 409);
      card.service.clock.advance(3_600_000 + 60_000);
      assert.equal(
        (await card.checkout('pro', key)).status,
        201,
        'the first expired at Stripe: it can no longer be paid',
      );
    });

    test('Stripe failing to open a Pro checkout holds nothing: the next one opens', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      card.api.failNext(400);
      assert.equal((await card.checkout('pro', key)).status, 502);
      assert.equal((await card.checkout('pro', key)).status, 201);
    });

    test('packs, and Pro bought without a key (a new Pro key each time), are not limited to one checkout', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      assert.equal((await card.checkout('pack_1k', key)).status, 201);
      assert.equal((await card.checkout('pack_1k', key)).status, 201);
      assert.equal((await card.checkout('pro')).status, 201);
      assert.equal((await card.checkout('pro')).status, 201);
    });

    test('two subscriptions on one key: the end of the one Pro rests on leaves Pro on the other, which the key can cancel', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      const { a, b, subB } = await twoSubscriptions(card, key);
      assert.deepEqual(await plan(card, key), ['pro', 10_000]);

      await card.deliver('customer.subscription.deleted', card.api.subscription(a, 'canceled'));
      assert.deepEqual(await plan(card, key), ['pro', 10_000], 'the second subscription still pays for Pro');
      const answer = await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key });
      assert.equal(answer.body.attribution, undefined);

      const cancelled = await cancel(card, key);
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.equal(cancelled.body.cancel_at_period_end, true);
      assert.deepEqual(card.api.subscriptionUpdates, [{ id: subB, params: { cancel_at_period_end: 'true' } }]);

      await card.deliver('customer.subscription.deleted', card.api.subscription(b, 'canceled'));
      assert.deepEqual(await plan(card, key), ['anonymous', 25], 'the last one ended: back to the free plan');
    });

    test('cancel stops every subscription of the key that still renews', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      const { subA, subB } = await twoSubscriptions(card, key);
      const cancelled = await cancel(card, key);
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.deepEqual(card.api.subscriptionUpdates.map((u) => u.id).sort(), [subA, subB].sort());
      assert.ok(card.api.subscriptionUpdates.every((u) => u.params.cancel_at_period_end === 'true'));
      assert.match(cancelled.body.message, /2 subscriptions/);
      assert.deepEqual(await plan(card, key), ['pro', 10_000], 'Pro lasts to the end of the period paid for');
    });

    test('a second subscription paid again after the first ended gives the key Pro again', async () => {
      const card = await startCardService(env());
      const key = await usedKey(card);
      const { a, b } = await twoSubscriptions(card, key);
      await card.deliver('customer.subscription.updated', card.api.subscription(b, 'unpaid'));
      assert.deepEqual(await plan(card, key), ['pro', 10_000], 'the first still pays');
      await card.deliver('customer.subscription.deleted', card.api.subscription(a, 'canceled'));
      assert.deepEqual(await plan(card, key), ['anonymous', 25], 'none of them is paid now');

      await card.deliver('customer.subscription.updated', card.api.subscription(b, 'active'));
      assert.deepEqual(await plan(card, key), ['pro', 10_000]);
      assert.equal((await cancel(card, key)).status, 200);
    });
  });
}

suite('SQLite', () => ({}), false);
suite(
  'PostgreSQL',
  () => ({ MOD97_DATABASE_URL: throwawaySchema('mod97_onesub').url }),
  !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
);
