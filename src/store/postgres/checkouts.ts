import type { CardCheckout, CheckoutStore, ProCheckoutHold } from '../types.ts';
import type { Pg } from './pg.ts';

type Raw = Omit<CardCheckout, 'newKey'> & { newKey: number };

export function pgCheckouts({ sql, idempotent, once }: Pg): CheckoutStore {
  return {
    // Not retried: a retry after a lost answer would see its own mark and call the step a repeat.
    async markDone(step, id, at) {
      const result = await once(
        () => sql`INSERT INTO card_steps_done (step, id, done_at) VALUES (${step}, ${id}, ${at}::bigint)
        ON CONFLICT DO NOTHING`,
      );
      return result.count === 1;
    },
    async unmarkDone(step, id) {
      await idempotent(() => sql`DELETE FROM card_steps_done WHERE step = ${step} AND id = ${id}`);
    },
    async recordCheckout(sessionId, product, at, buyerTokenHash = null) {
      await idempotent(
        () => sql`INSERT INTO card_checkouts (session_id, product, created_at, buyer_token_hash)
        VALUES (${sessionId}, ${product}, ${at}::bigint, ${buyerTokenHash}) ON CONFLICT (session_id) DO NOTHING`,
      );
    },
    async recordReveal(sessionId, keyHash, at) {
      await idempotent(
        () => sql`UPDATE card_checkouts SET revealed_key_hash = ${keyHash}, revealed_at = COALESCE(revealed_at, ${at}::bigint)
        WHERE session_id = ${sessionId}`,
      );
    },
    // A session the service did not start (created in Stripe's dashboard) is recorded on completion.
    async completeCheckout(sessionId, product, keyId, newKey, at) {
      const result = await once(
        () => sql`INSERT INTO card_checkouts (session_id, product, key_id, new_key, created_at, completed_at)
        VALUES (${sessionId}, ${product}, ${keyId}, ${newKey ? 1 : 0}::integer, ${at}::bigint, ${at}::bigint)
        ON CONFLICT (session_id) DO UPDATE SET key_id = excluded.key_id, new_key = excluded.new_key, completed_at = excluded.completed_at
        WHERE card_checkouts.key_id IS NULL`,
      );
      return result.count === 1;
    },
    async checkoutBySession(sessionId) {
      const rows = await idempotent(
        () => sql<Raw[]>`SELECT session_id AS "sessionId", product, key_id AS "keyId", new_key AS "newKey",
        created_at AS "createdAt", completed_at AS "completedAt", buyer_token_hash AS "buyerTokenHash",
        revealed_at AS "revealedAt", revealed_key_hash AS "revealedKeyHash"
        FROM card_checkouts WHERE session_id = ${sessionId}`,
      );
      return rows.length ? { ...rows[0], newKey: rows[0].newKey === 1 } : null;
    },
    // Taken when free, lapsed, or already this hold's: so sending it again after a lost answer
    // finds it taken, as it was.
    async holdProCheckout({ keyId, token, expiresAt }, now) {
      const taken = await idempotent(
        () => sql`INSERT INTO card_pro_checkouts (key_id, token, session_id, checkout_url, expires_at)
        VALUES (${keyId}, ${token}, NULL, NULL, ${expiresAt}::bigint)
        ON CONFLICT (key_id) DO UPDATE SET token = excluded.token, session_id = NULL, checkout_url = NULL,
          expires_at = excluded.expires_at
        WHERE card_pro_checkouts.expires_at <= ${now}::bigint OR card_pro_checkouts.token = excluded.token`,
      );
      if (taken.count === 1) return { taken: true };
      const rows = await idempotent(
        () => sql<ProCheckoutHold[]>`SELECT key_id AS "keyId", token, session_id AS "sessionId",
        checkout_url AS "checkoutUrl", expires_at AS "expiresAt" FROM card_pro_checkouts WHERE key_id = ${keyId}`,
      );
      return { taken: false, open: rows[0] ?? null };
    },
    async openProCheckout(keyId, token, { sessionId, checkoutUrl, expiresAt }) {
      const result = await idempotent(
        () => sql`UPDATE card_pro_checkouts SET session_id = ${sessionId}, checkout_url = ${checkoutUrl},
        expires_at = ${expiresAt}::bigint WHERE key_id = ${keyId} AND token = ${token}`,
      );
      return result.count === 1;
    },
    async releaseProCheckout(keyId, tokenOrSession) {
      await idempotent(
        () => sql`DELETE FROM card_pro_checkouts
        WHERE key_id = ${keyId} AND (token = ${tokenOrSession} OR session_id = ${tokenOrSession})`,
      );
    },
    async linkSubscription(subscriptionId, keyId, at) {
      await idempotent(
        () => sql`INSERT INTO card_subscriptions (subscription_id, key_id, created_at)
        VALUES (${subscriptionId}, ${keyId}, ${at}::bigint) ON CONFLICT (subscription_id) DO NOTHING`,
      );
    },
    async subscriptionsOf(keyId) {
      const rows = await idempotent(
        () => sql<{ id: string }[]>`SELECT subscription_id AS id FROM card_subscriptions WHERE key_id = ${keyId}
        ORDER BY created_at DESC, subscription_id`,
      );
      return rows.map((row) => row.id);
    },
  };
}
