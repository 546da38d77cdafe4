import { claimOf, type IdempotencyRow, RESERVE_ATTEMPTS, RESERVE_WHEN_FREE } from '../idempotency.ts';
import type { IdempotencyStore } from '../types.ts';
import type { Pg } from './pg.ts';

/**
 * Every statement here may be sent twice across a lost connection: a reservation met again is
 * recognised by its token, and completing, releasing and purging change nothing the second time.
 */
export function pgIdempotency({ sql, idempotent }: Pg): IdempotencyStore {
  const whenFree = sql.unsafe(RESERVE_WHEN_FREE);
  return {
    async reserveIdempotency(r) {
      for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
        const taken = await idempotent(
          () => sql`INSERT INTO idempotency_keys (scope, idem_key, fingerprint, token, created_at, expires_at)
          VALUES (${r.scope}, ${r.key}, ${r.fingerprint}, ${r.token}, ${r.now}::bigint, ${r.expiresAt}::bigint)
          ${whenFree}${r.staleBefore}::bigint)`,
        );
        if (taken.count === 1) return { state: 'reserved' };
        const rows = await idempotent(
          () => sql<IdempotencyRow[]>`SELECT fingerprint, token, status, content_type AS "contentType", body
          FROM idempotency_keys WHERE scope = ${r.scope} AND idem_key = ${r.key}`,
        );
        if (rows.length) return claimOf(rows[0], r);
      }
      return { state: 'in_progress' };
    },
    async completeIdempotency(scope, key, token, a) {
      const done = await idempotent(
        () => sql`UPDATE idempotency_keys SET status = ${a.status}::integer, content_type = ${a.contentType}, body = ${a.body}
        WHERE scope = ${scope} AND idem_key = ${key} AND token = ${token} AND (status IS NULL OR status = ${a.status}::integer)`,
      );
      return done.count === 1;
    },
    async releaseIdempotency(scope, key, token) {
      await idempotent(
        () =>
          sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND idem_key = ${key} AND token = ${token} AND status IS NULL`,
      );
    },
    async purgeIdempotency(now) {
      const purged = await idempotent(() => sql`DELETE FROM idempotency_keys WHERE expires_at <= ${now}::bigint`);
      return purged.count;
    },
  };
}
