/**
 * Stripe events in any order: each is applied by the state of the subscription as Stripe has it
 * when the event is processed (read back from the fake Stripe API), never by arrival. On SQLite
 * and, when MOD97_TEST_POSTGRES_URL is set, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pgUrl, throwawaySchema } from '../../support/pg.ts';
import { signedEvent } from '../../support/stripe/events.ts';
import { type CardService, startCardService } from '../../support/stripe/card-service.ts';

const plan = async (card: CardService, key: string) => {
  const u = (await card.service.call('/v1/keys/usage', { key })).body;
  return [u.tier, u.limit];
};

function suite(engine: string, env: () => Record<string, string>, skip: string | false) {
  describe(engine, { skip }, () => {
    test('a subscription deleted before its checkout.session.completed arrives never gives Pro', async () => {
      const card = await startCardService(env());
      const key = await card.service.newKey();
      const started = await card.checkout('pro', key);
      const completed = card.api.complete(started.body.session_id);
      const deleted = card.api.subscription(started.body.session_id, 'canceled');

      assert.deepEqual((await card.deliver('customer.subscription.deleted', deleted)).body, { received: true });
      assert.deepEqual((await card.deliver('checkout.session.completed', completed)).body, { received: true });
      assert.deepEqual(await plan(card, key), ['anonymous', 25], 'the subscription is gone: no Pro');
      assert.equal((await card.success(started.body.session_id)).body.tier, 'anonymous');
    });

    test('a newer "active" delivered before an older "unpaid" leaves the paying key on Pro', async () => {
      const card = await startCardService(env());
      const key = await card.service.newKey();
      const { sessionId } = await card.buy('pro', key);
      const unpaid = card.api.subscription(sessionId, 'unpaid');
      const active = card.api.subscription(sessionId, 'active');

      await card.deliver('customer.subscription.updated', active);
      await card.deliver('customer.subscription.updated', unpaid);
      assert.deepEqual(await plan(card, key), ['pro', 10_000]);

      // and in the order they happened, the state they end in is the same
      await card.deliver('customer.subscription.updated', card.api.subscription(sessionId, 'unpaid'));
      assert.deepEqual(await plan(card, key), ['anonymous', 25]);
      const paid = card.api.subscription(sessionId, 'active');
      await card.deliver('customer.subscription.updated', paid);
      assert.deepEqual(await plan(card, key), ['pro', 10_000]);
    });

    test('a late checkout of an older subscription, then its deletion, leave the newer paid subscription on Pro', async () => {
      const card = await startCardService(env());
      const key = await card.service.newKey();
      // two checkouts opened before either was paid: the service opens one per key, so the newer
      // is opened at Stripe beside it (as one opened before that rule would be)
      const older = (await card.checkout('pro', key)).body.session_id as string;
      const newer = card.api.open(card.api.created.at(-1) ?? {});
      const olderCompleted = card.api.complete(older);
      await card.deliver('checkout.session.completed', card.api.complete(newer));
      assert.deepEqual(await plan(card, key), ['pro', 10_000]);

      await card.deliver('checkout.session.completed', olderCompleted);
      await card.deliver('customer.subscription.deleted', card.api.subscription(older, 'canceled'));
      assert.deepEqual(await plan(card, key), ['pro', 10_000], 'Pro rests on the newer subscription');

      // the newer one ending does end Pro
      await card.deliver('customer.subscription.deleted', card.api.subscription(newer, 'canceled'));
      assert.deepEqual(await plan(card, key), ['anonymous', 25]);
    });

    test('a deletion delivered again, late, after a resubscription changes nothing; a duplicate is acknowledged', async () => {
      const card = await startCardService(env());
      const key = await card.service.newKey();
      const first = await card.buy('pro', key);
      const deleted = signedEvent(
        'customer.subscription.deleted',
        card.api.subscription(first.sessionId, 'canceled'),
        card.webhookSecret,
      );
      assert.deepEqual((await card.post(deleted)).body, { received: true });
      assert.deepEqual(await plan(card, key), ['anonymous', 25]);
      await card.buy('pro', key);
      assert.deepEqual((await card.post(deleted)).body, { received: true, duplicate: true });
      // the same deletion under another event id (Stripe may send one twice)
      await card.deliver('customer.subscription.deleted', card.api.subscription(first.sessionId, 'canceled'));
      assert.deepEqual(await plan(card, key), ['pro', 10_000]);
    });
  });
}

suite('SQLite', () => ({}), false);
suite(
  'PostgreSQL',
  () => ({ MOD97_DATABASE_URL: throwawaySchema('mod97_order').url }),
  !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
);
