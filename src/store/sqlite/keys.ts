import type { Database } from 'better-sqlite3';
import { KEY_COLUMNS, toKeyRow, type RawKeyRow } from '../key-row.ts';
import type { KeyStore, NewKey, PlanChange } from '../types.ts';
import type { KeyRow } from '../../records.ts';
import type { Durably } from './durable.ts';

/**
 * `forget` drops the lookup cache; other writers to api_keys call it too. Issuing, rotating,
 * changing the plan of (claim, credits, Pro) and revoking a key commit durably.
 */
export function sqliteKeys(db: Database, durably: Durably): { keys: KeyStore; forget: () => void } {
  const insert = db.prepare(`INSERT INTO api_keys (id, key_hash, key_prefix, tier, basis, cap, lifetime_period,
    email_hash, network, created_at, alert_born, alert_id) VALUES (@id, @keyHash, @keyPrefix, @tier, @basis, @limit,
    @lifetimePeriod, @emailHash, @network, @createdAt, @alertBorn, @alertId)`);
  const byHash = db.prepare<[string], RawKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`,
  );
  const byId = db.prepare<[string], RawKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`);
  const rotate = db.prepare(
    'UPDATE api_keys SET key_hash = ?, key_prefix = ? WHERE id = ? AND key_hash = ? AND revoked_at IS NULL',
  );
  const plan =
    db.prepare(`UPDATE api_keys SET tier = @tier, basis = @basis, cap = @limit, lifetime_period = @lifetimePeriod,
    email_hash = COALESCE(@emailHash, email_hash),
    fallback_tier = CASE WHEN @setFallback = 1 THEN @fallbackTier ELSE fallback_tier END,
    fallback_basis = CASE WHEN @setFallback = 1 THEN @fallbackBasis ELSE fallback_basis END,
    fallback_cap = CASE WHEN @setFallback = 1 THEN @fallbackLimit ELSE fallback_cap END,
    fallback_lifetime_period = CASE WHEN @setFallback = 1 THEN @fallbackLifetimePeriod ELSE fallback_lifetime_period END,
    subscription_id = CASE WHEN @setSubscription = 1 THEN @subscriptionId ELSE subscription_id END,
    alert_born = COALESCE(@alertBorn, alert_born), plan_rev = plan_rev + 1
    WHERE id = @id AND plan_rev = @expectedRev`);
  const served = db.prepare('UPDATE api_keys SET first_served_at = ? WHERE id = ? AND first_served_at IS NULL');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');

  // A SQLite file has one writer process, so every change to a key passes through here and the
  // lookup by hash (on every authenticated call) can be served from memory. Any write to a key
  // drops the cache; a bounded size keeps memory flat.
  const cache = new Map<string, KeyRow | null>();
  const CACHE_MAX = 50_000;
  const forget = () => cache.clear();

  const keys: KeyStore = {
    async insertKey(key: NewKey) {
      durably(() => insert.run({ ...key, alertBorn: key.alertBorn ? 1 : 0, alertId: key.alertId ?? null }))();
      forget();
    },
    async keyByHash(keyHash) {
      const cached = cache.get(keyHash);
      if (cached !== undefined) return cached && { ...cached };
      const row = toKeyRow(byHash.get(keyHash));
      if (cache.size >= CACHE_MAX) forget();
      cache.set(keyHash, row);
      return row && { ...row };
    },
    async keyById(id) {
      return toKeyRow(byId.get(id));
    },
    async rotateKey(id, oldHash, newHash, newPrefix) {
      forget();
      return durably(() => rotate.run(newHash, newPrefix, id, oldHash))().changes === 1;
    },
    async changePlan(id, expectedRev, change: PlanChange) {
      forget();
      const result = durably(plan.run.bind(plan))({
        id,
        expectedRev,
        tier: change.tier,
        basis: change.basis,
        limit: change.limit,
        lifetimePeriod: change.lifetimePeriod,
        emailHash: change.emailHash ?? null,
        setFallback: 'fallback' in change ? 1 : 0,
        fallbackTier: change.fallback?.tier ?? null,
        fallbackBasis: change.fallback?.basis ?? null,
        fallbackLimit: change.fallback?.limit ?? null,
        fallbackLifetimePeriod: change.fallback?.lifetimePeriod ?? null,
        setSubscription: 'subscriptionId' in change ? 1 : 0,
        subscriptionId: change.subscriptionId ?? null,
        alertBorn: change.alertBorn === undefined ? null : change.alertBorn ? 1 : 0,
      });
      return result.changes === 1;
    },
    async markServed(id, at) {
      forget();
      served.run(at, id);
    },
    async revokeKey(id, at) {
      forget();
      return durably(() => revoke.run(at, id))().changes === 1;
    },
  };
  return { keys, forget };
}
