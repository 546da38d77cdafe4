import type { Database } from 'better-sqlite3';
import type { CardCheckout, CheckoutStore, ProCheckoutHold } from '../types.ts';
import type { Durably } from './durable.ts';

type Raw = Omit<CardCheckout, 'newKey'> & { newKey: number };

/** Card steps done and checkouts fulfilled commit durably: a paid session is never fulfilled twice. */
export function sqliteCheckouts(db: Database, durably: Durably): CheckoutStore {
  const record = db.prepare(`INSERT INTO card_checkouts (session_id, product, created_at, buyer_token_hash)
    VALUES (?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING`);
  const reveal = db.prepare(`UPDATE card_checkouts SET revealed_key_hash = ?, revealed_at = COALESCE(revealed_at, ?)
    WHERE session_id = ?`);
  // A session the service did not start (created in Stripe's dashboard) is recorded on completion.
  const complete =
    db.prepare(`INSERT INTO card_checkouts (session_id, product, key_id, new_key, created_at, completed_at)
    VALUES (@sessionId, @product, @keyId, @newKey, @at, @at)
    ON CONFLICT (session_id) DO UPDATE SET key_id = excluded.key_id, new_key = excluded.new_key, completed_at = excluded.completed_at
    WHERE card_checkouts.key_id IS NULL`);
  const bySession = db.prepare<
    [string],
    Raw
  >(`SELECT session_id AS sessionId, product, key_id AS keyId, new_key AS newKey,
    created_at AS createdAt, completed_at AS completedAt, buyer_token_hash AS buyerTokenHash,
    revealed_at AS revealedAt, revealed_key_hash AS revealedKeyHash FROM card_checkouts WHERE session_id = ?`);
  // Taken when free, lapsed, or already this hold's (the same request asking again).
  const hold = db.prepare(`INSERT INTO card_pro_checkouts (key_id, token, session_id, checkout_url, expires_at)
    VALUES (@keyId, @token, NULL, NULL, @expiresAt)
    ON CONFLICT (key_id) DO UPDATE SET token = excluded.token, session_id = NULL, checkout_url = NULL,
      expires_at = excluded.expires_at
    WHERE card_pro_checkouts.expires_at <= @now OR card_pro_checkouts.token = excluded.token`);
  const heldBy = db.prepare<[string], ProCheckoutHold>(`SELECT key_id AS keyId, token, session_id AS sessionId,
    checkout_url AS checkoutUrl, expires_at AS expiresAt FROM card_pro_checkouts WHERE key_id = ?`);
  const open = db.prepare(`UPDATE card_pro_checkouts SET session_id = @sessionId, checkout_url = @checkoutUrl,
    expires_at = @expiresAt WHERE key_id = @keyId AND token = @token`);
  const release = db.prepare('DELETE FROM card_pro_checkouts WHERE key_id = ? AND (token = ? OR session_id = ?)');
  const link = db.prepare(`INSERT INTO card_subscriptions (subscription_id, key_id, created_at) VALUES (?, ?, ?)
    ON CONFLICT (subscription_id) DO NOTHING`);
  const subscriptionsOf = db.prepare<[string], { id: string }>(
    'SELECT subscription_id AS id FROM card_subscriptions WHERE key_id = ? ORDER BY created_at DESC, subscription_id',
  );
  const mark = db.prepare('INSERT INTO card_steps_done (step, id, done_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const unmark = db.prepare('DELETE FROM card_steps_done WHERE step = ? AND id = ?');
  return {
    async markDone(step, id, at) {
      return durably(() => mark.run(step, id, at))().changes === 1;
    },
    async unmarkDone(step, id) {
      durably(() => unmark.run(step, id))();
    },
    async recordCheckout(sessionId, product, at, buyerTokenHash = null) {
      durably(() => record.run(sessionId, product, at, buyerTokenHash))();
    },
    async recordReveal(sessionId, keyHash, at) {
      durably(() => reveal.run(keyHash, at, sessionId))();
    },
    async completeCheckout(sessionId, product, keyId, newKey, at) {
      return durably(() => complete.run({ sessionId, product, keyId, newKey: newKey ? 1 : 0, at }))().changes === 1;
    },
    async checkoutBySession(sessionId) {
      const raw = bySession.get(sessionId);
      return raw ? { ...raw, newKey: raw.newKey === 1 } : null;
    },
    // One process serves the file, and better-sqlite3 runs each statement to its end: nothing
    // comes between the conditional write and the read of who holds the key.
    async holdProCheckout({ keyId, token, expiresAt }, now) {
      if (durably(() => hold.run({ keyId, token, expiresAt, now }))().changes === 1) return { taken: true };
      return { taken: false, open: heldBy.get(keyId) ?? null };
    },
    async openProCheckout(keyId, token, session) {
      return durably(() => open.run({ keyId, token, ...session }))().changes === 1;
    },
    async releaseProCheckout(keyId, tokenOrSession) {
      durably(() => release.run(keyId, tokenOrSession, tokenOrSession))();
    },
    async linkSubscription(subscriptionId, keyId, at) {
      durably(() => link.run(subscriptionId, keyId, at))();
    },
    async subscriptionsOf(keyId) {
      return subscriptionsOf.all(keyId).map((row) => row.id);
    },
  };
}
