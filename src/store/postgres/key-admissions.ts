import { MONTH_OF_CALL } from '../../records.ts';
import { KEY_COLUMNS, toKeyRow, type RawKeyRow } from '../key-row.ts';
import type { KeyAdmission, KeyStore } from '../types.ts';
import { Batches, type Waiting } from './batches.ts';
import type { Pg } from './pg.ts';

/** Calls sent together at most: one statement, one round trip. */
const MAX_CALLS = 64;
/**
 * Statements in flight at once: the next batch goes out while one waits for its commit. Two rows
 * locked by both wait for each other in one order (below), so nothing can be charged twice or
 * deadlock; measured against one in flight in docs/benchmarks.md (the admissions' own groups,
 * counters.ts, lost throughput with two).
 */
const IN_FLIGHT = 2;

interface Call extends Waiting<KeyAdmission> {
  hash: string;
  cost: number;
  month: string;
}

type Row = RawKeyRow & { n: number; period: string | null; used: number | null; decided: boolean | null };

/**
 * keyByHashAdmitting (types.ts): the key lookups of the calls waiting together (batches.ts) and
 * their charges in one statement, so that a metered call makes one round trip to PostgreSQL
 * rather than two. The statement derives nothing: it charges the counter of the period stored
 * on the key row (`charge_period`, records.ts's chargePeriodOf, written with every plan), the
 * month of the call where that period is the month, up to the key's stored cap; the caller
 * checks the period against quota/plan.ts (Meter.authenticateAndAdmit).
 *
 * A charge is tried only for the first call of a key in the statement, on a counter row that
 * exists, for a key with a stored period and not born in a creation alert; every other call is
 * left to the caller's admission (counters.ts), which creates rows and walks repeats. The counter
 * rows are locked in the order every admission locks them (scope, subject, period), so that no
 * two statements can deadlock, and the refusing WHERE is the one of counters.ts.
 *
 * Every step after the lock finds its rows by what an earlier step carried, never by a search the
 * planner chooses: the update by the locked row's `ctid`, the answer by the call's number. (Joined
 * on text, the steps compared every pair of calls; and a generic plan made while `counters` was
 * nearly empty searched it by `scope` alone for each call: docs/benchmarks.md.) A row changed by
 * another transaction while this one waited for its lock is locked in its new version, which this
 * statement's snapshot cannot see, so the update skips it: that call is left to the caller too.
 */
export function pgKeyAdmissions({ sql, once }: Pg): Required<Pick<KeyStore, 'keyByHashAdmitting'>> {
  const cols = sql.unsafe(KEY_COLUMNS);
  const calls = new Batches<Call>(
    async (batch) => {
      // Only a key's first call in the batch is tried; its later ones go to the usual admission.
      const seen = new Set<string>();
      const firstOfKey = batch.map((c) => {
        if (seen.has(c.hash)) return false;
        seen.add(c.hash);
        return true;
      });
      try {
        const rows = await once(
          () => sql<Row[]>`WITH
      req AS (SELECT h, cost, m, tried, n::integer AS n
        FROM unnest(${batch.map((c) => c.hash)}::text[], ${batch.map((c) => c.cost)}::bigint[],
          ${batch.map((c) => c.month)}::text[], ${firstOfKey}::boolean[]) WITH ORDINALITY AS r(h, cost, m, tried, n)),
      found AS (SELECT r.n, r.cost, r.m, r.tried, k.* FROM req r CROSS JOIN LATERAL
        (SELECT ${cols}, charge_period FROM api_keys WHERE key_hash = r.h AND revoked_at IS NULL LIMIT 1) k),
      charge AS (SELECT n, cost, id, "limit" AS lim,
          CASE WHEN charge_period = ${MONTH_OF_CALL} THEN m ELSE charge_period END AS period
        FROM found WHERE tried AND charge_period IS NOT NULL AND "alertBorn" = 0),
      locked AS MATERIALIZED (SELECT o.n, o.cost, o.lim, o.period, c.ctid AS tid, c.used
        FROM (SELECT n, cost, lim, id, period FROM charge ORDER BY id COLLATE "C", period COLLATE "C") o
        CROSS JOIN LATERAL (SELECT ctid, used FROM counters
          WHERE scope = 'key' AND subject = o.id AND period = o.period FOR UPDATE) c),
      written AS (UPDATE counters c SET used = l.used + l.cost FROM locked l
        WHERE c.ctid = l.tid AND l.used + l.cost <= l.lim
        RETURNING l.n, c.used)
      SELECT f.*, l.period, w.used, (w.n IS NOT NULL OR l.used + l.cost > l.lim) AS decided FROM found f
        LEFT JOIN locked l ON l.n = f.n
        LEFT JOIN written w ON w.n = f.n`,
        );
        const byCall = new Map(rows.map((row) => [row.n, row]));
        for (const [i, c] of batch.entries()) {
          const row = byCall.get(i + 1);
          const key = toKeyRow(row);
          c.resolve(
            row?.decided && row.period !== null ? { key, charged: { period: row.period, used: row.used } } : { key },
          );
        }
      } catch (err) {
        for (const c of batch) c.reject(err);
      }
    },
    MAX_CALLS,
    IN_FLIGHT,
  );

  return {
    keyByHashAdmitting: (hash, cost, month) =>
      new Promise((resolve, reject) => calls.add({ hash, cost, month, resolve, reject })),
  };
}
