import { KEY_COLUMNS, toKeyRow, type RawKeyRow } from '../key-row.ts';
import type { KeyAdmission, KeyStore } from '../types.ts';
import { Batches } from './batches.ts';
import type { Pg } from './pg.ts';

/** Calls sent together at most: one statement, one round trip. */
const MAX_CALLS = 64;

interface Call {
  hash: string;
  cost: number;
  month: string;
  resolve: (answer: KeyAdmission) => void;
  reject: (err: unknown) => void;
}

type Row = RawKeyRow & { n: number; used: number | null; decided: boolean };

/**
 * keyByHashAdmitting (types.ts): the key lookups of the calls waiting together (batches.ts) and
 * their charges in one statement, so that a metered call makes one round trip to PostgreSQL
 * rather than two. The plan is derived in SQL as quota/plan.ts derives it for every key but one
 * born in a creation alert (whose plan depends on the alert: not tried here). A charge is tried
 * only on a counter row that exists and for the first call of its key in the statement; the
 * others are left to the caller's admission (counters.ts), which creates rows and walks repeats.
 * The counter rows are locked in the order every admission locks them (scope, subject, period),
 * so that no two statements can deadlock, and the refusing WHERE is the one of counters.ts.
 */
export function pgKeyAdmissions({ sql, once }: Pg): Required<Pick<KeyStore, 'keyByHashAdmitting'>> {
  const cols = sql.unsafe(KEY_COLUMNS);
  const calls = new Batches<Call>(async (batch) => {
    // A key's first call in the statement is charged here; its repeats go to the admission.
    const seen = new Set<string>();
    const tried = batch.map((c) => {
      if (seen.has(c.hash)) return false;
      seen.add(c.hash);
      return true;
    });
    try {
      const rows = await once(
        () => sql<Row[]>`WITH
      req AS (SELECT h, cost, m, tried, n::integer AS n
        FROM unnest(${batch.map((c) => c.hash)}::text[], ${batch.map((c) => c.cost)}::bigint[],
          ${batch.map((c) => c.month)}::text[], ${tried}::boolean[]) WITH ORDINALITY AS r(h, cost, m, tried, n)),
      found AS (SELECT r.n, r.cost, r.m, r.tried, k.* FROM req r CROSS JOIN LATERAL
        (SELECT ${cols} FROM api_keys WHERE key_hash = r.h AND revoked_at IS NULL LIMIT 1) k),
      plan AS (SELECT n, cost, id, "limit" AS lim,
          CASE WHEN basis = 'monthly' THEN m ELSE COALESCE("lifetimePeriod", basis) END AS period
        FROM found WHERE tried AND NOT ("alertBorn" = 1 AND tier = 'anonymous')),
      locked AS (SELECT c.subject, c.period, c.used
        FROM (SELECT id, period FROM plan ORDER BY id COLLATE "C", period COLLATE "C") o
        CROSS JOIN LATERAL (SELECT subject, period, used FROM counters
          WHERE scope = 'key' AND subject = o.id AND period = o.period FOR UPDATE) c),
      written AS (UPDATE counters c SET used = l.used + p.cost FROM plan p
          JOIN locked l ON l.subject = p.id AND l.period = p.period
        WHERE c.scope = 'key' AND c.subject = p.id AND c.period = p.period AND l.used + p.cost <= p.lim
        RETURNING c.subject, c.period, c.used)
      SELECT f.*, w.used, (l.subject IS NOT NULL) AS decided FROM found f
        LEFT JOIN plan p ON p.n = f.n
        LEFT JOIN locked l ON l.subject = p.id AND l.period = p.period
        LEFT JOIN written w ON w.subject = p.id AND w.period = p.period`,
      );
      const byCall = new Map(rows.map((row) => [row.n, row]));
      for (const [i, c] of batch.entries()) {
        const row = byCall.get(i + 1);
        c.resolve(row?.decided ? { key: toKeyRow(row), used: row.used } : { key: toKeyRow(row) });
      }
    } catch (err) {
      for (const c of batch) c.reject(err);
    }
  }, MAX_CALLS);

  return {
    keyByHashAdmitting: (hash, cost, month) =>
      new Promise((resolve, reject) => calls.add({ hash, cost, month, resolve, reject })),
  };
}
