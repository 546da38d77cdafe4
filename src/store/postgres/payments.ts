import type { PackRecovery, PaymentStore } from '../types.ts';
import type { Pg } from './pg.ts';

export function pgPayments({ sql, idempotent, once }: Pg): PaymentStore {
  return {
    async keepPackRecovery(kept, now) {
      await idempotent(() => sql`DELETE FROM pack_recoveries WHERE expires_at <= ${now}::bigint`);
      await idempotent(
        () => sql`INSERT INTO pack_recoveries (payment_id, key_id, proof, expires_at)
        VALUES (${kept.paymentId}, ${kept.keyId}, ${kept.proof}, ${kept.expiresAt}::bigint)
        ON CONFLICT (payment_id) DO NOTHING`,
      );
    },
    async packRecovery(paymentId, now) {
      const rows = await idempotent(
        () => sql<PackRecovery[]>`SELECT payment_id AS "paymentId", key_id AS "keyId", proof, expires_at AS "expiresAt"
        FROM pack_recoveries WHERE payment_id = ${paymentId} AND expires_at > ${now}::bigint`,
      );
      return rows[0] ?? null;
    },
    async recordPayment(p) {
      const result = await once(
        () => sql`INSERT INTO payments (id, network, asset, payer, pay_to, amount_micros, tx_hash, resource_url, key_id, settled_at)
        VALUES (${p.id}, ${p.network}, ${p.asset}, ${p.payer}, ${p.payTo}, ${p.amountMicros}::bigint, ${p.txHash}, ${p.resourceUrl}, ${p.keyId}, ${p.settledAt}::bigint)
        ON CONFLICT (id) DO NOTHING`,
      );
      return result.count === 1;
    },
    async hasPayment(id) {
      const rows = await idempotent(() => sql`SELECT 1 FROM payments WHERE id = ${id}`);
      return rows.length > 0;
    },
    async addPaidMicros(keyId, micros) {
      const rows = await once(
        () => sql<{ paid: number }[]>`UPDATE api_keys SET paid_micros = paid_micros + ${micros}::bigint
        WHERE id = ${keyId} RETURNING paid_micros AS paid`,
      );
      return rows[0]?.paid ?? 0;
    },
  };
}
