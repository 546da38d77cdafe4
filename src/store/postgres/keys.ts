import { type Basis, chargePeriodOf } from '../../records.ts';
import { KEY_COLUMNS, toKeyRow, type RawKeyRow } from '../key-row.ts';
import type { KeyStore, NewKey, PlanChange } from '../types.ts';
import { Batches, type Waiting } from './batches.ts';
import type { Pg } from './pg.ts';
import type { Sql } from './sql.ts';

/** Lookups sent together at most: one statement, one round trip. */
const MAX_LOOKUPS = 256;

interface Lookup extends Waiting<RawKeyRow | undefined> {
  hash: string;
}

export function pgKeys({ sql, idempotent, once }: Pg): KeyStore {
  const cols = sql.unsafe(KEY_COLUMNS);

  // Key lookups go out together (batches.ts), one statement and one round trip for many calls.
  // Nothing is kept after the answer, so a rotated or revoked key is refused by the next lookup.
  // One probe of the key_hash index per hash (LATERAL ... LIMIT 1): with `key_hash = ANY(...)`
  // the planner read the whole table when it was small (1,000 keys in the bench), which cost
  // PostgreSQL twice the CPU of the probes (docs/benchmarks.md).
  const lookups = new Batches<Lookup>(async (batch) => {
    const hashes = [...new Set(batch.map((l) => l.hash))];
    try {
      const rows = await idempotent(
        () =>
          sql<RawKeyRow[]>`SELECT k.* FROM unnest(${hashes}::text[]) AS h(hash) CROSS JOIN LATERAL
          (SELECT ${cols} FROM api_keys WHERE key_hash = h.hash AND revoked_at IS NULL LIMIT 1) k`,
      );
      const found = new Map(rows.map((row) => [row.keyHash, row]));
      for (const l of batch) l.resolve(found.get(l.hash));
    } catch (err) {
      for (const l of batch) l.reject(err);
    }
  }, MAX_LOOKUPS);

  return {
    async insertKey(key: NewKey) {
      await once(
        () => sql`INSERT INTO api_keys (id, key_hash, key_prefix, tier, basis, cap, lifetime_period, charge_period,
        email_hash, network, created_at, alert_born, alert_id) VALUES (${key.id}, ${key.keyHash}, ${key.keyPrefix}, ${key.tier},
        ${key.basis}, ${key.limit}::bigint, ${key.lifetimePeriod}, ${chargePeriodOf(key)}, ${key.emailHash}, ${key.network},
        ${key.createdAt}::bigint, ${key.alertBorn ? 1 : 0}::integer, ${key.alertId ?? null}::bigint)`,
      );
    },
    async keyByHash(keyHash) {
      const row = await new Promise<RawKeyRow | undefined>((resolve, reject) =>
        lookups.add({ hash: keyHash, resolve, reject }),
      );
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
        cap = ${change.limit}::bigint, lifetime_period = ${change.lifetimePeriod}, charge_period = ${chargePeriodOf(change)},
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

/**
 * Writes the charge period (records.ts's chargePeriodOf) of the key rows that have none: rows
 * from before the column, or copied in by `mod97 migrate-to` from SQLite, which leaves it empty.
 * Run with the migrations, at every open; a row whose plan changed meanwhile is left to the
 * change, which wrote its own.
 */
export async function fillChargePeriods(tx: Sql): Promise<void> {
  const rows = await tx<{ id: string; basis: Basis; lifetimePeriod: string | null; planRev: number }[]>`SELECT id,
    basis, lifetime_period AS "lifetimePeriod", plan_rev AS "planRev" FROM api_keys WHERE charge_period IS NULL`;
  if (rows.length === 0) return;
  await tx`UPDATE api_keys a SET charge_period = u.period
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map(chargePeriodOf)}::text[], ${rows.map((r) => r.planRev)}::integer[])
      AS u(id, period, rev)
    WHERE a.id = u.id AND a.plan_rev = u.rev`;
}
