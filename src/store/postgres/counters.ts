import { Refused, unlessRefused } from '../refused.ts';
import type { CounterRef, CounterStore } from '../types.ts';
import { Batches, type Waiting } from './batches.ts';
import { compareText } from './lock-order.ts';
import type { Pg } from './pg.ts';
import type { Sql } from './sql.ts';

interface Pending extends Waiting<number | null> {
  ref: CounterRef;
  cost: number;
  limit: number;
}

/** Admits decided in one statement at most; a full group goes out at once (batches.ts). */
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

  const admitOne = async (p: Pending) => (await once(() => admitStatement(sql, p)))[0]?.used ?? null;

  // Group commit (batches.ts): the admits waiting while a group is in flight are decided
  // together in one statement (admitGroup, below): one durable commit (one WAL flush) and one
  // round trip for the group. A single admit is the conditional statement itself.
  const groups = new Batches<Pending>(async (group) => {
    try {
      const results = group.length === 1 ? [await admitOne(group[0])] : await admitGroup(once, sql, group, admitOne);
      for (const [i, p] of group.entries()) p.resolve(results[i]);
    } catch (err) {
      for (const p of group) p.reject(err);
    }
  }, MAX_GROUP);

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
      return new Promise((resolve, reject) => groups.add({ ref, cost, limit, resolve, reject }));
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

const idOf = (ref: CounterRef) => JSON.stringify([ref.scope, ref.subject, ref.period]);

/**
 * The admits of a group, in arrival order: each gets its new count, or null when refused. One
 * statement when every counter row exists (the usual case): it locks the rows (FOR UPDATE, in
 * one order so that two groups cannot deadlock; the sorted counters drive one primary-key probe
 * each, LATERAL, where a join let the planner read the whole table while it was small), walks
 * each row's admits in arrival order exactly as the conditional statement would (a refused one
 * is skipped and later ones still tried), and writes each row's new count. A group that charges
 * each counter once (the usual case under many keys) needs no walk: the same locks, then each
 * row takes its one admit or refuses it.
 *
 * Every step after the lock finds its rows by what an earlier step carried, never by a search the
 * planner chooses: the update by the locked row's `ctid`, the answer by the admit's number (as in
 * key-admissions.ts; docs/benchmarks.md). A row changed by another transaction while the
 * statement waited for its lock is locked in its new version, which the statement's snapshot
 * cannot see, so the update skips it and its admits stay undecided, as do admits whose row is
 * missing. Those get their rows created at zero and go through the statement once more; what is
 * still undecided then goes through the conditional statement one admit at a time, in arrival
 * order (it re-reads a row changed under it, so it always decides).
 */
async function admitGroup(
  run: Pg['once'],
  sql: Sql,
  group: Pending[],
  admitOne: (p: Pending) => Promise<number | null>,
): Promise<(number | null)[]> {
  const results: (number | null)[] = group.map(() => null);
  let left = group.map((_, i) => i);
  for (let attempt = 0; attempt < 2 && left.length > 0; attempt++) {
    if (attempt > 0) {
      const refs = [...new Map(left.map((i) => [idOf(group[i].ref), group[i].ref])).values()];
      await run(
        () => sql`INSERT INTO counters (scope, subject, period, used)
        SELECT s, t, p, 0 FROM unnest(${refs.map((r) => r.scope)}::text[], ${refs.map((r) => r.subject)}::text[],
          ${refs.map((r) => r.period)}::text[]) AS u(s, t, p)
        ORDER BY s COLLATE "C", t COLLATE "C", p COLLATE "C"
        ON CONFLICT (scope, subject, period) DO NOTHING`,
      );
    }
    const these = left;
    const pick = <T>(f: (p: Pending) => T) => these.map((i) => f(group[i]));
    const distinct = new Set(these.map((i) => idOf(group[i].ref))).size === these.length;
    const rows = await run(() =>
      distinct
        ? // Each counter once (the usual group): each row takes its one admit or refuses it.
          sql<{ n: number; used: number | null; decided: boolean }[]>`WITH
      req AS (SELECT s, t, p, cost, lim, n::integer AS n
        FROM unnest(${pick((p) => p.ref.scope)}::text[], ${pick((p) => p.ref.subject)}::text[],
          ${pick((p) => p.ref.period)}::text[], ${pick((p) => p.cost)}::bigint[], ${pick((p) => p.limit)}::bigint[])
          WITH ORDINALITY AS r(s, t, p, cost, lim, n)),
      locked AS MATERIALIZED (SELECT o.n, o.cost, o.lim, c.ctid AS tid, c.used
        FROM (SELECT n, s, t, p, cost, lim FROM req ORDER BY s COLLATE "C", t COLLATE "C", p COLLATE "C") o
        CROSS JOIN LATERAL (SELECT ctid, used FROM counters
          WHERE scope = o.s AND subject = o.t AND period = o.p FOR UPDATE) c),
      written AS (UPDATE counters c SET used = l.used + l.cost FROM locked l
        WHERE c.ctid = l.tid AND l.used + l.cost <= l.lim
        RETURNING l.n, c.used)
      SELECT l.n, w.used, (w.n IS NOT NULL OR l.used + l.cost > l.lim) AS decided
        FROM locked l LEFT JOIN written w ON w.n = l.n`
        : // A counter twice or more: walk each row's admits in arrival order.
          sql<{ n: number; used: number | null; decided: boolean }[]>`WITH RECURSIVE
      req AS (SELECT s, t, p, cost, lim, n::integer AS n,
          row_number() OVER (PARTITION BY s, t, p ORDER BY n) AS k
        FROM unnest(${pick((p) => p.ref.scope)}::text[], ${pick((p) => p.ref.subject)}::text[],
          ${pick((p) => p.ref.period)}::text[], ${pick((p) => p.cost)}::bigint[], ${pick((p) => p.limit)}::bigint[])
          WITH ORDINALITY AS r(s, t, p, cost, lim, n)),
      locked AS MATERIALIZED (SELECT o.s, o.t, o.p, c.ctid AS tid, c.used
        FROM (SELECT s, t, p FROM req GROUP BY s, t, p ORDER BY s COLLATE "C", t COLLATE "C", p COLLATE "C") o
        CROSS JOIN LATERAL (SELECT ctid, used FROM counters
          WHERE scope = o.s AND subject = o.t AND period = o.p FOR UPDATE) c),
      walk AS (
        SELECT tid, s, t, p, 0::bigint AS k, used, NULL::integer AS n, NULL::bigint AS got FROM locked
        UNION ALL
        SELECT w.tid, w.s, w.t, w.p, r.k,
          CASE WHEN w.used + r.cost <= r.lim THEN w.used + r.cost ELSE w.used END, r.n,
          CASE WHEN w.used + r.cost <= r.lim THEN w.used + r.cost END
        FROM walk w JOIN req r ON r.s = w.s AND r.t = w.t AND r.p = w.p AND r.k = w.k + 1),
      -- A row's count only grows along its walk: its last count is the largest, its first the smallest.
      final AS (SELECT tid, max(used) AS used, min(used) AS start FROM walk GROUP BY tid),
      written AS (UPDATE counters c SET used = f.used FROM final f
        WHERE c.ctid = f.tid AND f.used <> f.start
        RETURNING f.tid)
      SELECT w.n, w.got AS used, (f.used = f.start OR x.tid IS NOT NULL) AS decided
        FROM walk w JOIN final f ON f.tid = w.tid LEFT JOIN written x ON x.tid = w.tid
        WHERE w.n IS NOT NULL`,
    );
    left = [];
    const decided = new Map(rows.filter((row) => row.decided).map((row) => [row.n, row.used]));
    for (const [j, i] of these.entries()) {
      if (decided.has(j + 1)) results[i] = decided.get(j + 1) ?? null;
      else left.push(i);
    }
  }
  for (const i of left) results[i] = await admitOne(group[i]);
  return results;
}

function compare(a: CounterRef, b: CounterRef): number {
  return compareText(a.scope, b.scope) || compareText(a.subject, b.subject) || compareText(a.period, b.period);
}
