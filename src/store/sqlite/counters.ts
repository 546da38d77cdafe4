import type { Database } from 'better-sqlite3';
import { Refused, unlessRefused } from '../refused.ts';
import type { CounterLimit, CounterRef, CounterStore, IdempotencyHold } from '../types.ts';
import type { TurnCommit } from './turn-commit.ts';

/** `writeHold` writes a held Idempotency-Key's entry (idempotency.ts), in the transaction of the charge it is for. */
export function sqliteCounters(
  db: Database,
  inTurn: TurnCommit,
  writeHold: (hold: IdempotencyHold) => void,
): CounterStore {
  // The common case, a period's row that exists and has room, is one plain update by primary
  // key (cheaper than the upsert's conflict path). When it changes nothing, one statement both
  // creates the period's row and admits against the limit; the WHERE of the upsert refuses
  // without writing. `.all()`, never `.get()`, on RETURNING (see README). Positional parameters:
  // binding by name looks every name up on every call, on the path of every metered request.
  const bump = db
    .prepare<
      [number, string, string, string, number, number],
      number
    >(`UPDATE counters SET used = used + ? WHERE scope = ? AND subject = ? AND period = ? AND used + ? <= ?
    RETURNING used`)
    .pluck();
  const admit = db
    .prepare<
      [string, string, string, number, number, number, number],
      number
    >(`INSERT INTO counters (scope, subject, period, used)
    SELECT ?, ?, ?, ? WHERE ? <= ?
    ON CONFLICT (scope, subject, period) DO UPDATE SET used = counters.used + excluded.used
    WHERE counters.used + excluded.used <= ?
    RETURNING used`)
    .pluck();
  const admitted = (ref: CounterRef, cost: number, limit: number): number | null => {
    const bumped = bump.all(cost, ref.scope, ref.subject, ref.period, cost, limit);
    if (bumped.length) return bumped[0];
    const used = admit.all(ref.scope, ref.subject, ref.period, cost, cost, limit, limit);
    return used.length ? used[0] : null;
  };
  const refund = db.prepare<
    CounterRef & { cost: number },
    { used: number }
  >(`UPDATE counters SET used = MAX(used - @cost, 0)
    WHERE scope = @scope AND subject = @subject AND period = @period RETURNING used`);
  const read = db.prepare<CounterRef, { used: number }>(
    'SELECT used FROM counters WHERE scope = @scope AND subject = @subject AND period = @period',
  );

  // Admits are group-committed (turn-commit.ts): a burst pays for one WAL commit instead of one
  // each (docs/benchmarks.md). Each admit is still its own atomic
  // conditional statement.
  // Several counters charged together (a key reduced by a creation alert also counts in its
  // month): each is the same conditional statement, and a refusal rolls every one back.
  const admitAllTx = db.transaction((parts: CounterLimit[], cost: number, hold?: IdempotencyHold): number[] => {
    const counts: number[] = [];
    for (const { ref, limit } of parts) {
      const used = admitted(ref, cost, limit);
      if (used === null) throw new Refused();
      counts.push(used);
    }
    if (hold) writeHold(hold);
    return counts;
  });
  const refundAllTx = db.transaction((refs: CounterRef[], cost: number) =>
    refs.map((ref) => refund.all({ ...ref, cost })[0]?.used ?? 0),
  );

  return {
    admitAll(parts, cost, hold) {
      return unlessRefused(() => admitAllTx.immediate(parts, cost, hold));
    },
    async refundAll(refs, cost) {
      return refundAllTx.immediate(refs, cost);
    },
    admit(ref, cost, limit, hold) {
      return inTurn(() => {
        const used = admitted(ref, cost, limit);
        if (used !== null && hold) writeHold(hold);
        return used;
      });
    },
    async refund(ref, cost) {
      const rows = refund.all({ ...ref, cost });
      return rows.length ? rows[0].used : 0;
    },
    async read(ref) {
      const row = read.get(ref);
      return row?.used ?? 0;
    },
  };
}
