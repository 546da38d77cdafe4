import type { AlertState, AlertStore } from '../types.ts';
import type { Pg } from './pg.ts';

/** Buckets are kept an hour past the window, so that a process whose clock lags loses none. */
const KEEP_SECONDS = 3600;

export function pgAlert({ sql, idempotent, once }: Pg): AlertStore {
  return {
    // Two statements on purpose, each committed on its own: the bump is visible to every
    // process before this one sums the window, so of keys counted concurrently the last one
    // sees them all (in one transaction, two concurrent ones could each miss the other).
    async countAnonymousCreation(at, windowSeconds) {
      const second = Math.floor(at / 1000);
      const [row] = await once(
        () => sql<{ created: number }[]>`INSERT INTO anonymous_creations (second, created)
        VALUES (${second}::bigint, 1) ON CONFLICT (second) DO UPDATE SET created = anonymous_creations.created + 1
        RETURNING created`,
      );
      if (row.created === 1) {
        await idempotent(
          () => sql`DELETE FROM anonymous_creations WHERE second <= ${second - windowSeconds - KEEP_SECONDS}::bigint`,
        );
      }
      // A range over the primary key: at most one row per second of the window, whatever the history.
      const [total] = await idempotent(
        () => sql<{ n: number }[]>`SELECT COALESCE(SUM(created), 0)::bigint AS n
        FROM anonymous_creations WHERE second > ${second - windowSeconds}::bigint AND second <= ${second}::bigint`,
      );
      return total.n;
    },
    // While an alert is on, a burst only pushes its end; once it is over, a burst starts a new
    // one. The row is locked by the upsert, so processes racing here agree on one identity.
    async extendAlert(now, endsAt) {
      const rows = await idempotent(
        () => sql<AlertState[]>`INSERT INTO creation_alert (id, started_at, ends_at)
        VALUES (1, ${now}::bigint, ${endsAt}::bigint) ON CONFLICT (id) DO UPDATE SET
        started_at = CASE WHEN creation_alert.ends_at > ${now}::bigint THEN creation_alert.started_at ELSE excluded.started_at END,
        ends_at = GREATEST(creation_alert.ends_at, excluded.ends_at)
        RETURNING started_at AS "startedAt", ends_at AS "endsAt"`,
      );
      return { ...rows[0] };
    },
    async latestAlert() {
      const rows = await idempotent(
        () => sql<AlertState[]>`SELECT started_at AS "startedAt", ends_at AS "endsAt" FROM creation_alert WHERE id = 1`,
      );
      return rows.length ? { ...rows[0] } : null;
    },
  };
}
