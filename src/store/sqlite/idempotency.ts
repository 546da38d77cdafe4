import type { Database } from 'better-sqlite3';
import { claimOf, type IdempotencyRow } from '../idempotency.ts';
import type { IdempotencyClaim, IdempotencyReservation, IdempotencyStore } from '../types.ts';
import type { TurnCommit } from './turn-commit.ts';

/** A request being answered: held in memory, never written. */
interface Held {
  fingerprint: string;
  token: string;
  createdAt: number;
  expiresAt: number;
}

const UNANSWERED = { status: null, contentType: null, body: null };

/**
 * A SQLite file serves one process (docs/operations.md, "Several processes on PostgreSQL"), so
 * the requests still being answered are all in this process: they are held here, in memory,
 * and the database is written once per first request, when its answer is final, with that
 * answer, in the group commit of its turn (turn-commit.ts). A first request thus costs one
 * point read (is there an answer already?) and one insert; the retries read.
 *
 * Why not a reservation row completed later, as on PostgreSQL: every row is keyed by a random
 * hash, so each write dirties a page of the key index that no other write of the commit shares,
 * and a row grown by its answer moves; two writes a call were most of what an Idempotency-Key
 * cost (docs/benchmarks.md, "Idempotency-Key").
 */
export function sqliteIdempotency(db: Database, inTurn: TurnCommit): IdempotencyStore {
  const held = new Map<string, Held>();
  const id = (scope: string, key: string) => `${scope}\n${key}`;
  const answered = db.prepare<
    [string, string],
    IdempotencyRow & { expiresAt: number }
  >(`SELECT fingerprint, token, status, content_type AS contentType, body, expires_at AS expiresAt
    FROM idempotency_keys WHERE scope = ? AND idem_key = ?`);
  // An expired entry not yet purged is replaced; a live one never is.
  const keep = db.prepare(`INSERT INTO idempotency_keys
    (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at)
    VALUES (@scope, @key, @fingerprint, @token, @status, @contentType, @body, @createdAt, @expiresAt)
    ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint, token = excluded.token,
      status = excluded.status, content_type = excluded.content_type, body = excluded.body,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    WHERE idempotency_keys.expires_at <= excluded.created_at`);
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');

  function claim(r: IdempotencyReservation): IdempotencyClaim {
    const holder = held.get(id(r.scope, r.key));
    // A request held past staleBefore hangs: the key may be taken over, as a stale row may be.
    if (holder && holder.createdAt > r.staleBefore) return claimOf({ ...holder, ...UNANSWERED }, r);
    const row = answered.get(r.scope, r.key);
    if (row && row.expiresAt > r.now) return claimOf(row, r);
    held.set(id(r.scope, r.key), {
      fingerprint: r.fingerprint,
      token: r.token,
      createdAt: r.now,
      expiresAt: r.expiresAt,
    });
    return { state: 'reserved' };
  }

  /** The holder of the key, while `token` is still the one holding it. */
  function holding(scope: string, key: string, token: string): Held | undefined {
    const holder = held.get(id(scope, key));
    return holder?.token === token ? holder : undefined;
  }

  return {
    async reserveIdempotency(reservation) {
      return claim(reservation);
    },
    async completeIdempotency(scope, key, token, answer) {
      const holder = holding(scope, key, token);
      if (!holder) return false;
      // Held until the answer is committed: a retry meanwhile is in progress, never a second first request.
      try {
        const { fingerprint, createdAt, expiresAt } = holder;
        const row = { scope, key, fingerprint, token, createdAt, expiresAt, ...answer };
        return await inTurn(() => keep.run(row).changes === 1);
      } finally {
        if (holding(scope, key, token)) held.delete(id(scope, key));
      }
    },
    async releaseIdempotency(scope, key, token) {
      if (holding(scope, key, token)) held.delete(id(scope, key));
    },
    async purgeIdempotency(now) {
      // A request that never settled (it cannot, unless a step before it threw) is let go with its day.
      for (const [at, holder] of held) if (holder.expiresAt <= now) held.delete(at);
      return purge.run(now).changes;
    },
  };
}
