import type { CardCheckout, CheckoutStore } from '../types.ts';
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
    async recordCheckout(sessionId, product, at) {
      await idempotent(
        () => sql`INSERT INTO card_checkouts (session_id, product, created_at) VALUES (${sessionId}, ${product}, ${at}::bigint)
        ON CONFLICT (session_id) DO NOTHING`,
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
        created_at AS "createdAt", completed_at AS "completedAt" FROM card_checkouts WHERE session_id = ${sessionId}`,
      );
      return rows.length ? { ...rows[0], newKey: rows[0].newKey === 1 } : null;
    },
  };
}
