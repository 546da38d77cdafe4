import { Refused, unlessRefused } from '../refused.ts';
import type { CounterRef, CounterStore } from '../types.ts';
import type { Pg, Sql } from './index.ts';

interface Pending {
  ref: CounterRef;
  cost: number;
  limit: number;
  resolve: (used: number | null) => void;
  reject: (err: unknown) => void;
}

const MAX_GROUP = 64;

export function pgCounters({ sql, idempotent, once }: Pg): CounterStore {
  // One statement creates the period's row or adds to it, and its WHERE refuses without
  // writing. Under concurrency the conflicting row is locked and the WHERE re-checked on its
  // newest version, so no interleaving passes the limit. Parameters are cast: they travel as
  // text, and two untyped values would be compared as text.
  const admitStatement = (q: Sql, { ref, cost, limit }: { ref: CounterRef; cost: number; limit: number }) => q<
    { used: number }[]
  >`INSERT INTO counters (scope, subject, period, used)
    SELECT ${ref.scope}, ${ref.subject}, ${ref.period}, ${cost}::bigint WHERE ${cost}::bigint <= ${limit}::bigint
    ON CONFLICT (scope, subject, period) DO UPDATE SET used = counters.used + excluded.used
    WHERE counters.used + excluded.used <= ${limit}::bigint
    RETURNING used`;

  // Group commit: admits that arrive in the same turn of the event loop are sent back to back
  // in one transaction on one connection, so a burst waits for one durable commit (one WAL flush) instead of one
  // each. Each admit is still its own atomic conditional statement, and a later one in the
  // group sees the earlier ones. Statements are sorted by counter so that two groups lock
  // shared rows in the same order and cannot deadlock each other.
  const pending: Pending[] = [];
  async function flush(): Promise<void> {
    const group = pending.splice(0, MAX_GROUP);
    if (pending.length) setImmediate(flush);
    group.sort((a, b) => compare(a.ref, b.ref));
    try {
      const results =
        group.length === 1
          ? [await once(() => admitStatement(sql, group[0]))]
          : await once(() =>
              sql.begin(async (tx) => {
                const out = [];
                for (const p of group) out.push(await admitStatement(tx, p));
                return out;
              }),
            );
      for (const [i, p] of group.entries()) p.resolve(results[i].length ? results[i][0].used : null);
    } catch (err) {
      for (const p of group) p.reject(err);
    }
  }

  return {
    // Several counters charged together (a key reduced by a creation alert also counts in its
    // month): one transaction, rows locked in counter order like the groups above, and a
    // refusal rolls every one back.
    async admitAll(parts, cost) {
      const order = parts.map((_, i) => i).sort((a, b) => compare(parts[a].ref, parts[b].ref));
      return unlessRefused(() =>
        once(() =>
          sql.begin(async (tx) => {
            const out: number[] = [];
            for (const i of order) {
              const rows = await admitStatement(tx, { ...parts[i], cost });
              if (rows.length === 0) throw new Refused();
              out[i] = rows[0].used;
            }
            return out;
          }),
        ),
      );
    },
    async refundAll(refs, cost) {
      const order = refs.map((_, i) => i).sort((a, b) => compare(refs[a], refs[b]));
      return once(() =>
        sql.begin(async (tx) => {
          const out: number[] = refs.map(() => 0);
          for (const i of order) {
            const ref = refs[i];
            const rows = await tx<{ used: number }[]>`UPDATE counters SET used = GREATEST(used - ${cost}::bigint, 0)
            WHERE scope = ${ref.scope} AND subject = ${ref.subject} AND period = ${ref.period} RETURNING used`;
            if (rows.length) out[i] = rows[0].used;
          }
          return out;
        }),
      );
    },
    admit(ref, cost, limit) {
      return new Promise((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ ref, cost, limit, resolve, reject });
      });
    },
    async refund(ref, cost) {
      const rows = await once(
        () => sql<{ used: number }[]>`UPDATE counters SET used = GREATEST(used - ${cost}::bigint, 0)
        WHERE scope = ${ref.scope} AND subject = ${ref.subject} AND period = ${ref.period} RETURNING used`,
      );
      return rows.length ? rows[0].used : 0;
    },
    async read(ref) {
      const rows = await idempotent(
        () => sql<{ used: number }[]>`SELECT used FROM counters
        WHERE scope = ${ref.scope} AND subject = ${ref.subject} AND period = ${ref.period}`,
      );
      return rows.length ? rows[0].used : 0;
    },
  };
}

function compare(a: CounterRef, b: CounterRef): number {
  return a.scope < b.scope
    ? -1
    : a.scope > b.scope
      ? 1
      : a.subject < b.subject
        ? -1
        : a.subject > b.subject
          ? 1
          : a.period < b.period
            ? -1
            : a.period > b.period
              ? 1
              : 0;
}
