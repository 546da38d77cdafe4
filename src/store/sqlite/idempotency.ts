import type { Database } from 'better-sqlite3';
import { claimOf, type IdempotencyRow } from '../idempotency.ts';
import type { IdempotencyClaim, IdempotencyHold, IdempotencyReservation, IdempotencyStore } from '../types.ts';
import type { TurnCommit } from './turn-commit.ts';

/** A request being answered, held in this process's memory. */
interface Held {
  fingerprint: string;
  token: string;
  createdAt: number;
  expiresAt: number;
}

const UNANSWERED = { status: null, contentType: null, body: null };

/**
 * A SQLite file serves one process (docs/operations.md, "Several processes on PostgreSQL"), so
 * the requests still being answered are all in this process: they are held here, in memory.
 * The database is written twice per first request, each time inside a commit made anyway: the
 * entry, unanswered, in the commit of the request's charge (`writeHold`, called by the counters),
 * then its answer, in the group commit of its turn (turn-commit.ts). So once a call is charged
 * its entry is on disk: an unanswered entry that no request here holds was left by a process
 * that died mid-answer, and its retry is `resumed`, not charged again.
 *
 * Why not a reservation row written before the charge, as on PostgreSQL: every row is keyed by
 * a random hash, so each write dirties a page of the key index that no other write of a commit
 * shares; a commit of its own for it was most of what an Idempotency-Key cost
 * (docs/benchmarks.md, "Idempotency-Key").
 */
export function sqliteIdempotency(db: Database, inTurn: TurnCommit) {
  const held = new Map<string, Held>();
  const id = (scope: string, key: string) => `${scope}\n${key}`;
  const read = db.prepare<
    [string, string],
    IdempotencyRow & { expiresAt: number }
  >(`SELECT fingerprint, token, status, content_type AS contentType, body, expires_at AS expiresAt
    FROM idempotency_keys WHERE scope = ? AND idem_key = ?`);
  // An expired entry not yet purged is replaced, and so is an unanswered one: only the request
  // holding the key in memory writes it. An answered live entry never is.
  const write = db.prepare(`INSERT INTO idempotency_keys
    (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at)
    VALUES (@scope, @key, @fingerprint, @token, @status, @contentType, @body, @createdAt, @expiresAt)
    ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint, token = excluded.token,
      status = excluded.status, content_type = excluded.content_type, body = excluded.body,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    WHERE idempotency_keys.expires_at <= excluded.created_at OR idempotency_keys.status IS NULL`);
  const dropUnanswered = db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND idem_key = ? AND status IS NULL');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');

  function claim(r: IdempotencyReservation): IdempotencyClaim {
    const holder = held.get(id(r.scope, r.key));
    // A request held past staleBefore hangs: the key may be taken over, as an entry left unanswered may be.
    if (holder && holder.createdAt > r.staleBefore) return claimOf({ ...holder, ...UNANSWERED }, r);
    const row = read.get(r.scope, r.key);
    const live = row && row.expiresAt > r.now ? row : undefined;
    if (live && live.status !== null) return claimOf(live, r);
    held.set(id(r.scope, r.key), {
      fingerprint: r.fingerprint,
      token: r.token,
      createdAt: r.now,
      expiresAt: r.expiresAt,
    });
    const left = holder ?? live;
    return left?.fingerprint === r.fingerprint ? { state: 'resumed' } : { state: 'reserved' };
  }

  /** The holder of the key, while `token` is still the one holding it. */
  function holding(scope: string, key: string, token: string): Held | undefined {
    const holder = held.get(id(scope, key));
    return holder?.token === token ? holder : undefined;
  }

  const store: IdempotencyStore = {
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
        return await inTurn(() => write.run(row).changes === 1);
      } finally {
        if (holding(scope, key, token)) held.delete(id(scope, key));
      }
    },
    async releaseIdempotency(scope, key, token) {
      if (!holding(scope, key, token)) return;
      held.delete(id(scope, key));
      // The entry written with a charge since refunded (or one resumed and refused): the key is free again.
      dropUnanswered.run(scope, key);
    },
    async purgeIdempotency(now) {
      // A request that never settled (it cannot, unless a step before it threw) is let go with its day.
      for (const [at, holder] of held) if (holder.expiresAt <= now) held.delete(at);
      return purge.run(now).changes;
    },
  };

  /** Inside the charge's transaction: the entry of the key `hold` names, unanswered, while its request holds it. */
  function writeHold({ scope, key, token }: IdempotencyHold): void {
    const holder = holding(scope, key, token);
    if (holder) write.run({ scope, key, ...holder, ...UNANSWERED });
  }

  return { store, writeHold };
}
