import type { Database } from 'better-sqlite3';
import type { CounterStore } from '../types.ts';

export function sqliteCounters(db: Database): CounterStore {
  // One statement both creates the period's row and admits against the limit; the WHERE of the
  // upsert refuses without writing. `.all()`, never `.get()`, on RETURNING (see WAL note in README).
  const admit = db.prepare(`INSERT INTO counters (scope, subject, period, used)
    SELECT @scope, @subject, @period, @cost WHERE @cost <= @limit
    ON CONFLICT (scope, subject, period) DO UPDATE SET used = counters.used + excluded.used
    WHERE counters.used + excluded.used <= @limit
    RETURNING used`);
  const refund = db.prepare(`UPDATE counters SET used = MAX(used - @cost, 0)
    WHERE scope = @scope AND subject = @subject AND period = @period RETURNING used`);
  const read = db.prepare('SELECT used FROM counters WHERE scope = @scope AND subject = @subject AND period = @period');

  return {
    async admit(ref, cost, limit) {
      const rows = admit.all({ ...ref, cost, limit }) as { used: number }[];
      return rows.length ? rows[0].used : null;
    },
    async refund(ref, cost) {
      const rows = refund.all({ ...ref, cost }) as { used: number }[];
      return rows.length ? rows[0].used : 0;
    },
    async read(ref) {
      const row = read.get(ref) as { used: number } | undefined;
      return row?.used ?? 0;
    },
  };
}
