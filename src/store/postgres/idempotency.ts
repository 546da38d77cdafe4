import { claimOf, type IdempotencyRow } from '../idempotency.ts';
import type { IdempotencyStore } from '../types.ts';
import type { Pg } from './pg.ts';

/**
 * Takes the key when no entry holds it, or when the one that does has expired or was left by a
 * request that never finished (a process that died mid-answer). Never a read followed by a write.
 * The entry is written before the charge, so once a call is charged its entry is durable.
 * `resumed` marks a takeover of the same request's entry left unanswered (the SET reads the
 * entry as it was, locked): that request may have been charged, so this one is not.
 */
const RESERVE_WHEN_FREE = `ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint,
  token = excluded.token, status = NULL, content_type = NULL, body = NULL, created_at = excluded.created_at,
  expires_at = excluded.expires_at,
  resumed = CASE WHEN idempotency_keys.status IS NULL AND idempotency_keys.expires_at > excluded.created_at
    AND idempotency_keys.fingerprint = excluded.fingerprint THEN 1 ELSE 0 END
  WHERE idempotency_keys.expires_at <= excluded.created_at
    OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= `;

/** A refused reservation reads the entry back; if it vanished meanwhile (released), it asks again. */
const RESERVE_ATTEMPTS = 3;

/**
 * Several processes may share the database, so a request being answered holds its key with a
 * row of its own (a reservation), completed with its answer or deleted. Every statement here
 * may be sent twice across a lost connection: a reservation met again is recognised by its
 * token, and completing, releasing and purging change nothing the second time.
 */
export function pgIdempotency({ sql, idempotent }: Pg): IdempotencyStore {
  const whenFree = sql.unsafe(RESERVE_WHEN_FREE);
  return {
    async reserveIdempotency(r) {
      for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
        const taken = await idempotent(
          () => sql<{ resumed: number }[]>`INSERT INTO idempotency_keys (scope, idem_key, fingerprint, token,
            created_at, expires_at)
          VALUES (${r.scope}, ${r.key}, ${r.fingerprint}, ${r.token}, ${r.now}::bigint, ${r.expiresAt}::bigint)
          ${whenFree}${r.staleBefore}::bigint)
          RETURNING resumed`,
        );
        if (taken.count === 1) return { state: taken[0].resumed === 1 ? 'resumed' : 'reserved' };
        const rows = await idempotent(
          () => sql<IdempotencyRow[]>`SELECT fingerprint, token, status, content_type AS "contentType", body, resumed
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
