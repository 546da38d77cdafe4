import type { Database } from 'better-sqlite3';
import type { KeyRow, KeyStore, NewKey, PlanChange } from '../types.ts';

const COLUMNS = `id, key_hash AS keyHash, key_prefix AS keyPrefix, tier, basis, cap AS "limit",
  lifetime_period AS lifetimePeriod, email_hash AS emailHash, network, created_at AS createdAt,
  alert_born AS alertBorn, first_served_at AS firstServedAt, paid_micros AS paidMicros,
  fallback_tier AS fallbackTier, subscription_id AS subscriptionId, revoked_at AS revokedAt,
  plan_rev AS planRev`;

type Raw = Omit<KeyRow, 'alertBorn'> & { alertBorn: number };
const toRow = (raw: Raw | undefined): KeyRow | null => (raw ? { ...raw, alertBorn: raw.alertBorn === 1 } : null);

/** `forget` drops the lookup cache; other writers to api_keys call it too. */
export function sqliteKeys(db: Database): { keys: KeyStore; forget: () => void } {
  const insert = db.prepare(`INSERT INTO api_keys (id, key_hash, key_prefix, tier, basis, cap, lifetime_period,
    email_hash, network, created_at, alert_born) VALUES (@id, @keyHash, @keyPrefix, @tier, @basis, @limit,
    @lifetimePeriod, @emailHash, @network, @createdAt, @alertBorn)`);
  const byHash = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`);
  const rotate = db.prepare('UPDATE api_keys SET key_hash = ?, key_prefix = ? WHERE id = ? AND key_hash = ? AND revoked_at IS NULL');
  const plan = db.prepare(`UPDATE api_keys SET tier = @tier, basis = @basis, cap = @limit, lifetime_period = @lifetimePeriod,
    email_hash = COALESCE(@emailHash, email_hash), fallback_tier = CASE WHEN @setFallback = 1 THEN @fallbackTier ELSE fallback_tier END,
    subscription_id = CASE WHEN @setSubscription = 1 THEN @subscriptionId ELSE subscription_id END,
    alert_born = COALESCE(@alertBorn, alert_born), plan_rev = plan_rev + 1
    WHERE id = @id AND plan_rev = @expectedRev`);
  const served = db.prepare('UPDATE api_keys SET first_served_at = ? WHERE id = ? AND first_served_at IS NULL');

  // A SQLite file has one writer process, so every change to a key passes through here and the
  // lookup by hash (on every authenticated call) can be served from memory. Any write to a key
  // drops the cache; a bounded size keeps memory flat.
  const cache = new Map<string, KeyRow | null>();
  const CACHE_MAX = 50_000;
  const forget = () => cache.clear();

  const keys: KeyStore = {
    async insertKey(key: NewKey) {
      insert.run({ ...key, alertBorn: key.alertBorn ? 1 : 0 });
      forget();
    },
    async keyByHash(keyHash) {
      const cached = cache.get(keyHash);
      if (cached !== undefined) return cached && { ...cached };
      const row = toRow(byHash.get(keyHash) as Raw | undefined);
      if (cache.size >= CACHE_MAX) forget();
      cache.set(keyHash, row);
      return row && { ...row };
    },
    async keyById(id) {
      return toRow(byId.get(id) as Raw | undefined);
    },
    async rotateKey(id, oldHash, newHash, newPrefix) {
      forget();
      return rotate.run(newHash, newPrefix, id, oldHash).changes === 1;
    },
    async changePlan(id, expectedRev, change: PlanChange) {
      forget();
      const result = plan.run({
        id,
        expectedRev,
        tier: change.tier,
        basis: change.basis,
        limit: change.limit,
        lifetimePeriod: change.lifetimePeriod,
        emailHash: change.emailHash ?? null,
        setFallback: 'fallbackTier' in change ? 1 : 0,
        fallbackTier: change.fallbackTier ?? null,
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
  };
  return { keys, forget };
}
