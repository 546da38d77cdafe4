import { KEY_COLUMNS, toKeyRow, type RawKeyRow } from '../key-row.ts';
import type { KeyStore, NewKey, PlanChange } from '../types.ts';
import type { Pg } from './index.ts';

/** Lookups sent together at most: one statement, one round trip. */
const MAX_LOOKUPS = 256;

export function pgKeys({ sql, idempotent, once }: Pg): KeyStore {
  const cols = sql.unsafe(KEY_COLUMNS);

  // The key lookups of one turn of the event loop (one per authenticated call) go out as one
  // statement: under load, one round trip for many calls instead of one each. Nothing is kept
  // after the answer, so a rotated or revoked key is refused by the next lookup.
  let waiting = new Map<string, { resolve: (row: RawKeyRow | undefined) => void; reject: (e: unknown) => void }[]>();
  async function lookUp(): Promise<void> {
    const batch = waiting;
    waiting = new Map();
    const hashes = [...batch.keys()];
    for (let i = 0; i < hashes.length; i += MAX_LOOKUPS) {
      const some = hashes.slice(i, i + MAX_LOOKUPS);
      try {
        const rows = await idempotent(
          () =>
            sql<RawKeyRow[]>`SELECT ${cols} FROM api_keys WHERE key_hash = ANY(${some}::text[]) AND revoked_at IS NULL`,
        );
        const found = new Map(rows.map((row) => [row.keyHash, row]));
        for (const hash of some) for (const w of batch.get(hash)!) w.resolve(found.get(hash));
      } catch (err) {
        for (const hash of some) for (const w of batch.get(hash)!) w.reject(err);
      }
    }
  }

  return {
    async insertKey(key: NewKey) {
      await once(
        () => sql`INSERT INTO api_keys (id, key_hash, key_prefix, tier, basis, cap, lifetime_period,
        email_hash, network, created_at, alert_born, alert_id) VALUES (${key.id}, ${key.keyHash}, ${key.keyPrefix}, ${key.tier},
        ${key.basis}, ${key.limit}::bigint, ${key.lifetimePeriod}, ${key.emailHash}, ${key.network},
        ${key.createdAt}::bigint, ${key.alertBorn ? 1 : 0}::integer, ${key.alertId ?? null}::bigint)`,
      );
    },
    async keyByHash(keyHash) {
      const row = await new Promise<RawKeyRow | undefined>((resolve, reject) => {
        if (waiting.size === 0) setImmediate(lookUp);
        const same = waiting.get(keyHash);
        if (same) same.push({ resolve, reject });
        else waiting.set(keyHash, [{ resolve, reject }]);
      });
      return toKeyRow(row);
    },
    async keyById(id) {
      const rows = await idempotent(() => sql<RawKeyRow[]>`SELECT ${cols} FROM api_keys WHERE id = ${id}`);
      return toKeyRow(rows[0]);
    },
    async rotateKey(id, oldHash, newHash, newPrefix) {
      const result = await once(
        () => sql`UPDATE api_keys SET key_hash = ${newHash}, key_prefix = ${newPrefix}
        WHERE id = ${id} AND key_hash = ${oldHash} AND revoked_at IS NULL`,
      );
      return result.count === 1;
    },
    async changePlan(id, expectedRev, change: PlanChange) {
      const setFallback = 'fallback' in change;
      const fallback = change.fallback ?? null;
      const setSubscription = 'subscriptionId' in change;
      const alertBorn = change.alertBorn === undefined ? null : change.alertBorn ? 1 : 0;
      const result = await once(
        () => sql`UPDATE api_keys SET tier = ${change.tier}, basis = ${change.basis},
        cap = ${change.limit}::bigint, lifetime_period = ${change.lifetimePeriod},
        email_hash = COALESCE(${change.emailHash ?? null}::text, email_hash),
        fallback_tier = CASE WHEN ${setFallback}::boolean THEN ${fallback?.tier ?? null}::text ELSE fallback_tier END,
        fallback_basis = CASE WHEN ${setFallback}::boolean THEN ${fallback?.basis ?? null}::text ELSE fallback_basis END,
        fallback_cap = CASE WHEN ${setFallback}::boolean THEN ${fallback?.limit ?? null}::bigint ELSE fallback_cap END,
        fallback_lifetime_period = CASE WHEN ${setFallback}::boolean THEN ${fallback?.lifetimePeriod ?? null}::text ELSE fallback_lifetime_period END,
        subscription_id = CASE WHEN ${setSubscription}::boolean THEN ${change.subscriptionId ?? null}::text ELSE subscription_id END,
        alert_born = COALESCE(${alertBorn}::integer, alert_born), plan_rev = plan_rev + 1
        WHERE id = ${id} AND plan_rev = ${expectedRev}::integer`,
      );
      return result.count === 1;
    },
    async markServed(id, at) {
      await idempotent(
        () => sql`UPDATE api_keys SET first_served_at = ${at}::bigint WHERE id = ${id} AND first_served_at IS NULL`,
      );
    },
    async revokeKey(id, at) {
      // Safe to repeat: a retry after a lost answer finds the key revoked (and answers false).
      const result = await idempotent(
        () => sql`UPDATE api_keys SET revoked_at = ${at}::bigint WHERE id = ${id} AND revoked_at IS NULL`,
      );
      return result.count === 1;
    },
  };
}
