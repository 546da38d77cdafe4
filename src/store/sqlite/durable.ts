import type { Database } from 'better-sqlite3';

/**
 * The connection commits with `synchronous = NORMAL` (in WAL mode: durable against a crash of
 * the process, not of the machine, and no fsync per commit). Writes that create or move value
 * (keys issued, claimed, rotated; plans, credits and payments) must survive power loss before
 * the answer goes out: `durably(fn)` runs fn's commit under `synchronous = FULL`, which syncs
 * the WAL before the commit returns (docs/reliability.md). better-sqlite3 is synchronous, so no
 * other statement of this connection runs between the two pragmas.
 */
export function durableWrites(db: Database) {
  const full = db.prepare('PRAGMA synchronous = FULL');
  const normal = db.prepare('PRAGMA synchronous = NORMAL');
  return function durably<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      full.run();
      try {
        return fn(...args);
      } finally {
        normal.run();
      }
    };
  };
}

export type Durably = ReturnType<typeof durableWrites>;
