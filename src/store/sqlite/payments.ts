import type { Database } from 'better-sqlite3';
import type { PackRecovery, PaymentStore } from '../types.ts';
import type { Durably } from './durable.ts';

/** The record of a payment and the money it adds to a key commit durably. */
export function sqlitePayments(db: Database, onKeyChange: () => void, durably: Durably): PaymentStore {
  const insert =
    db.prepare(`INSERT INTO payments (id, network, asset, payer, pay_to, amount_micros, tx_hash, resource_url, key_id, settled_at)
    VALUES (@id, @network, @asset, @payer, @payTo, @amountMicros, @txHash, @resourceUrl, @keyId, @settledAt)
    ON CONFLICT (id) DO NOTHING`);
  const exists = db.prepare('SELECT 1 FROM payments WHERE id = ?');
  const addPaid = db.prepare<[number, string], { paid: number }>(
    'UPDATE api_keys SET paid_micros = paid_micros + ? WHERE id = ? RETURNING paid_micros AS paid',
  );
  const keepRecovery = db.prepare(`INSERT INTO pack_recoveries (payment_id, key_id, proof, expires_at)
    VALUES (@paymentId, @keyId, @proof, @expiresAt) ON CONFLICT (payment_id) DO NOTHING`);
  const dropLapsed = db.prepare('DELETE FROM pack_recoveries WHERE expires_at <= ?');
  const recovery = db.prepare<[string, number], PackRecovery>(`SELECT payment_id AS paymentId, key_id AS keyId,
    proof, expires_at AS expiresAt FROM pack_recoveries WHERE payment_id = ? AND expires_at > ?`);
  return {
    async keepPackRecovery(kept, now) {
      durably(() => {
        dropLapsed.run(now);
        keepRecovery.run(kept);
      })();
    },
    async packRecovery(paymentId, now) {
      return recovery.get(paymentId, now) ?? null;
    },
    async recordPayment(payment) {
      return durably(() => insert.run(payment))().changes === 1;
    },
    async hasPayment(id) {
      return exists.get(id) !== undefined;
    },
    async addPaidMicros(keyId, micros) {
      onKeyChange();
      const rows = durably(() => addPaid.all(micros, keyId))();
      return rows[0]?.paid ?? 0;
    },
  };
}
