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

  // Group commit: admits that arrive in the same turn of the event loop are decided together
  // in one transaction of four statements whatever the group's size, so a burst waits for one
  // durable commit (one WAL flush) and a few round trips instead of one of each per admit:
  // the group's counter rows are created if missing, locked (FOR UPDATE, in one order so that
  // two groups cannot deadlock), decided one admit after another exactly as the conditional
  // statement would, and written back. A single admit is the conditional statement itself.
  const pending: Pending[] = [];
  async function flush(): Promise<void> {
    const group = pending.splice(0, MAX_GROUP);
    if (pending.length) setImmediate(flush);
    try {
      const results =
        group.length === 1
          ? [(await once(() => admitStatement(sql, group[0]!)))[0]?.used ?? null]
          : await once(() => sql.begin((tx) => admitGroup(tx, group)));
      for (const [i, p] of group.entries()) p.resolve(results[i]!);
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

const idOf = (ref: CounterRef) => JSON.stringify([ref.scope, ref.subject, ref.period]);

/** The admits of a group, in arrival order: each gets its new count, or null when refused. */
async function admitGroup(tx: Sql, group: Pending[]): Promise<(number | null)[]> {
  const refs = [...new Map(group.map((p) => [idOf(p.ref), p.ref])).values()];
  const scopes = refs.map((r) => r.scope);
  const subjects = refs.map((r) => r.subject);
  const periods = refs.map((r) => r.period);
  await tx`INSERT INTO counters (scope, subject, period, used)
    SELECT s, t, p, 0 FROM unnest(${scopes}::text[], ${subjects}::text[], ${periods}::text[]) AS u(s, t, p)
    ORDER BY s COLLATE "C", t COLLATE "C", p COLLATE "C"
    ON CONFLICT (scope, subject, period) DO NOTHING`;
  const rows = await tx<(CounterRef & { used: number })[]>`SELECT c.scope, c.subject, c.period, c.used
    FROM counters c JOIN unnest(${scopes}::text[], ${subjects}::text[], ${periods}::text[]) AS u(s, t, p)
    ON c.scope = u.s AND c.subject = u.t AND c.period = u.p
    ORDER BY c.scope COLLATE "C", c.subject COLLATE "C", c.period COLLATE "C" FOR UPDATE OF c`;
  const before = new Map(rows.map((r) => [idOf(r), r.used]));
  const used = new Map(before);
  const results = group.map(({ ref, cost, limit }) => {
    const id = idOf(ref);
    const next = (used.get(id) ?? 0) + cost;
    if (next > limit) return null;
    used.set(id, next);
    return next;
  });
  const changed = refs.filter((r) => used.get(idOf(r)) !== before.get(idOf(r)));
  if (changed.length) {
    await tx`UPDATE counters c SET used = u.used
      FROM unnest(${changed.map((r) => r.scope)}::text[], ${changed.map((r) => r.subject)}::text[],
        ${changed.map((r) => r.period)}::text[], ${changed.map((r) => used.get(idOf(r)))}::bigint[]) AS u(s, t, p, used)
      WHERE c.scope = u.s AND c.subject = u.t AND c.period = u.p`;
  }
  return results;
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
