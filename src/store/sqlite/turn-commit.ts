import type { Database } from 'better-sqlite3';

interface Pending {
  /** Runs the write inside the transaction; what it returns hands its result over after the commit. */
  write: () => () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for the writes on the path of a request (admissions, with the Idempotency-Key
 * entry they carry): those made in the same turn of the event loop run one after another at its
 * end, inside one transaction, so a burst pays for one WAL commit instead of one each. Each write
 * is still its own statements, with its own result, in the order they were made.
 *
 * A write that fails fails only its own request; the others of the turn commit. The turn runs
 * first without a savepoint per write (a savepoint and its release cost about as much as the
 * admission itself, docs/benchmarks.md); when one write throws, the whole transaction is rolled
 * back and the turn is run again with that write refused and every other under a savepoint of
 * its own. So a write may run twice, and must only touch the database (each does: one or a few
 * statements, whose result is handed over only after the commit). Only a failed commit (disk
 * full, I/O error), or a write whose error made SQLite roll the whole transaction back, fails
 * them all, since then none was kept.
 */
export function turnCommit(db: Database): <R>(run: () => R) => Promise<R> {
  let pending: Pending[] = [];
  const runTogether = db.transaction((batch: Pending[]) => {
    const handOvers: Array<() => void> = [];
    for (const p of batch) {
      try {
        handOvers.push(p.write());
      } catch (err) {
        throw new FailedWrite(p, err);
      }
    }
    return handOvers;
  });
  // A transaction function called inside another runs as a savepoint (better-sqlite3).
  const runOne = db.transaction((p: Pending) => p.write());
  const runApart = db.transaction((batch: Pending[], failed: FailedWrite) => {
    const handOvers: Array<() => void> = [];
    for (const p of batch) {
      if (p === failed.pending) {
        handOvers.push(() => p.reject(failed.cause));
        continue;
      }
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
      for (const handOver of commitTurn(batch)) handOver();
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
  function commitTurn(batch: Pending[]): Array<() => void> {
    try {
      return runTogether(batch);
    } catch (err) {
      if (!(err instanceof FailedWrite)) throw err; // the commit itself failed
      return runApart(batch, err);
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

/** The first write of a turn that threw, when the turn ran without savepoints. */
class FailedWrite extends Error {
  constructor(
    readonly pending: Pending,
    override readonly cause: unknown,
  ) {
    super('a write of the turn failed');
  }
}

export type TurnCommit = ReturnType<typeof turnCommit>;
