import type { Database } from 'better-sqlite3';

interface Pending {
  /** Runs the write inside the transaction; what it returns hands its result over after the commit. */
  write: () => () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for the writes on the path of a request (admissions, Idempotency-Key
 * reservations and answers): those made in the same turn of the event loop run one after
 * another at its end, inside one transaction, so a burst pays for one WAL commit instead of one
 * each. Each write is still its own statements, with its own result, in the order they were
 * made, and runs under a savepoint of its own: a write that fails is rolled back alone and fails
 * only its own request, while the others of the turn commit. Only a failed commit (disk full,
 * I/O error), or a write whose error made SQLite roll the whole transaction back, fails them
 * all, since then none was kept.
 */
export function turnCommit(db: Database): <R>(run: () => R) => Promise<R> {
  let pending: Pending[] = [];
  // A transaction function called inside another runs as a savepoint (better-sqlite3).
  const runOne = db.transaction((p: Pending) => p.write());
  const runAll = db.transaction((batch: Pending[]) => {
    const handOvers: Array<() => void> = [];
    for (const p of batch) {
      try {
        handOvers.push(runOne(p));
      } catch (err) {
        // SQLite may have rolled the whole transaction back itself (disk full, I/O error): the
        // writes before this one are gone, and any after it would commit one by one outside it.
        if (!db.inTransaction) throw err;
        handOvers.push(() => p.reject(err));
      }
    }
    return handOvers;
  });
  function flush(): void {
    const batch = pending;
    pending = [];
    try {
      for (const handOver of runAll(batch)) handOver();
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
  return <R>(run: () => R) =>
    new Promise<R>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({
        write: () => {
          const result = run();
          return () => resolve(result);
        },
        reject,
      });
    });
}

export type TurnCommit = ReturnType<typeof turnCommit>;
