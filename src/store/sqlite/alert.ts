import type { Database } from 'better-sqlite3';
import type { AlertState, AlertStore } from '../types.ts';
import { theRow } from './row.ts';

/** Buckets are kept an hour past the window, so that a process whose clock lags loses none. */
const KEEP_SECONDS = 3600;

export function sqliteAlert(db: Database): AlertStore {
  const bump = db.prepare<
    [number],
    { created: number }
  >(`INSERT INTO anonymous_creations (second, created) VALUES (?, 1)
    ON CONFLICT (second) DO UPDATE SET created = anonymous_creations.created + 1 RETURNING created`);
  const prune = db.prepare('DELETE FROM anonymous_creations WHERE second <= ?');
  // A range over the primary key: at most one row per second of the window, whatever the history.
  const sum = db.prepare<[number, number], { n: number }>(
    'SELECT COALESCE(SUM(created), 0) AS n FROM anonymous_creations WHERE second > ? AND second <= ?',
  );
  // While an alert is on, a burst only pushes its end; once it is over, a burst starts a new one.
  const extend = db.prepare<
    { now: number; endsAt: number },
    AlertState
  >(`INSERT INTO creation_alert (id, started_at, ends_at) VALUES (1, @now, @endsAt)
    ON CONFLICT (id) DO UPDATE SET
    started_at = CASE WHEN creation_alert.ends_at > @now THEN creation_alert.started_at ELSE excluded.started_at END,
    ends_at = MAX(creation_alert.ends_at, excluded.ends_at)
    RETURNING started_at AS startedAt, ends_at AS endsAt`);
  const latest = db.prepare<[], AlertState>(
    'SELECT started_at AS startedAt, ends_at AS endsAt FROM creation_alert WHERE id = 1',
  );

  const count = db.transaction((second: number, windowSeconds: number): number => {
    const [row] = bump.all(second);
    if (theRow(row, 'the creation upsert').created === 1) prune.run(second - windowSeconds - KEEP_SECONDS);
    return theRow(sum.get(second - windowSeconds, second), 'the creation sum').n;
  });

  return {
    async countAnonymousCreation(at, windowSeconds) {
      return count.immediate(Math.floor(at / 1000), windowSeconds);
    },
    async extendAlert(now, endsAt) {
      return theRow(extend.all({ now, endsAt })[0], 'the alert upsert');
    },
    async latestAlert() {
      return latest.get() ?? null;
    },
  };
}
