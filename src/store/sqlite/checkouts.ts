import type { Database } from 'better-sqlite3';
import type { CardCheckout, CheckoutStore } from '../types.ts';
import type { Durably } from './durable.ts';

type Raw = Omit<CardCheckout, 'newKey'> & { newKey: number };

/** Card steps done and checkouts fulfilled commit durably: a paid session is never fulfilled twice. */
export function sqliteCheckouts(db: Database, durably: Durably): CheckoutStore {
  const record = db.prepare(`INSERT INTO card_checkouts (session_id, product, created_at) VALUES (?, ?, ?)
    ON CONFLICT (session_id) DO NOTHING`);
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
    created_at AS createdAt, completed_at AS completedAt FROM card_checkouts WHERE session_id = ?`);
  const mark = db.prepare('INSERT INTO card_steps_done (step, id, done_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const unmark = db.prepare('DELETE FROM card_steps_done WHERE step = ? AND id = ?');
  return {
    async markDone(step, id, at) {
      return durably(() => mark.run(step, id, at))().changes === 1;
    },
    async unmarkDone(step, id) {
      durably(() => unmark.run(step, id))();
    },
    async recordCheckout(sessionId, product, at) {
      durably(() => record.run(sessionId, product, at))();
    },
    async completeCheckout(sessionId, product, keyId, newKey, at) {
      return durably(() => complete.run({ sessionId, product, keyId, newKey: newKey ? 1 : 0, at }))().changes === 1;
    },
    async checkoutBySession(sessionId) {
      const raw = bySession.get(sessionId);
      return raw ? { ...raw, newKey: raw.newKey === 1 } : null;
    },
  };
}
