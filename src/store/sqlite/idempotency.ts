import type { Database } from 'better-sqlite3';
import { claimOf, type IdempotencyRow, RESERVE_ATTEMPTS, RESERVE_WHEN_FREE } from '../idempotency.ts';
import type { IdempotencyClaim, IdempotencyStore } from '../types.ts';
import type { TurnCommit } from './turn-commit.ts';

export function sqliteIdempotency(db: Database, inTurn: TurnCommit): IdempotencyStore {
  const reserve = db.prepare(`INSERT INTO idempotency_keys (scope, idem_key, fingerprint, token, created_at, expires_at)
    VALUES (@scope, @key, @fingerprint, @token, @now, @expiresAt)
    ${RESERVE_WHEN_FREE}@staleBefore)`);
  const holder = db.prepare<
    [string, string],
    IdempotencyRow
  >(`SELECT fingerprint, token, status, content_type AS contentType, body
    FROM idempotency_keys WHERE scope = ? AND idem_key = ?`);
  const complete = db.prepare(`UPDATE idempotency_keys SET status = @status, content_type = @contentType, body = @body
    WHERE scope = @scope AND idem_key = @key AND token = @token AND status IS NULL`);
  const release = db.prepare(
    'DELETE FROM idempotency_keys WHERE scope = ? AND idem_key = ? AND token = ? AND status IS NULL',
  );
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
  return {
    // On the path of every call with an Idempotency-Key: group-committed with the admissions
    // (turn-commit.ts) rather than a commit of their own each.
    reserveIdempotency(reservation) {
      return inTurn((): IdempotencyClaim => {
        for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
          if (reserve.run(reservation).changes === 1) return { state: 'reserved' };
          const row = holder.get(reservation.scope, reservation.key);
          if (row) return claimOf(row, reservation);
        }
        return { state: 'in_progress' };
      });
    },
    completeIdempotency(scope, key, token, answer) {
      return inTurn(() => complete.run({ scope, key, token, ...answer }).changes === 1);
    },
    async releaseIdempotency(scope, key, token) {
      release.run(scope, key, token);
    },
    async purgeIdempotency(now) {
      return purge.run(now).changes;
    },
  };
}
