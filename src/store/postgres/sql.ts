/**
 * Tagged-template queries over node-postgres (`pg`) and its pool: `sql\`... ${value}\`` sends each
 * value as a bound parameter ($1, $2, ...); `sql.unsafe(text)` is a fragment spliced in as SQL
 * (fixed column lists only, never input). `sql.begin` runs a function in a transaction on one
 * pooled connection.
 *
 * Why pg and not postgres.js: postgres.js 3.4.9 crashed the process when PostgreSQL restarted
 * under our pipelined group commits (a write scheduled on a closed socket, connection.js:255)
 * and answered UNSAFE_TRANSACTION under many concurrent `sql.begin`; docs/reliability.md has
 * the measurements.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

/** Rows of a result, with the number of rows the statement touched. */
export type Rows<T> = T & { count: number };

class Fragment {
  constructor(readonly text: string) {}
}

export interface Sql {
  <T extends readonly object[] = Record<string, unknown>[]>(
    strings: TemplateStringsArray,
    ...values: unknown[]
  ): Promise<Rows<T>>;
  /** A piece of SQL text, spliced in as is: constants only. */
  unsafe(text: string): Fragment;
  /** Runs `text` (several statements allowed, no parameters). */
  exec(text: string): Promise<void>;
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  begin<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

type Runner = Pick<pg.Pool, 'query'>;

function render(strings: TemplateStringsArray, values: unknown[]): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  let text = strings[0];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value instanceof Fragment) text += value.text;
    else text += `$${params.push(value)}`;
    text += strings[i + 1];
  }
  return { text, params };
}

// Named statements are parsed and planned once per connection, then only bound and run.
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `mod97_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

function bind(runner: Runner, begin: Sql['begin']): Sql {
  const sql = (async (strings: TemplateStringsArray, ...values: unknown[]) => {
    const { text, params } = render(strings, values);
    const result = await runner.query({ name: statementName(text), text, values: params });
    return Object.assign(result.rows, { count: result.rowCount ?? 0 });
  }) as Sql;
  sql.unsafe = (text) => new Fragment(text);
  sql.exec = async (text) => {
    await runner.query(text);
  };
  sql.begin = begin;
  return sql;
}

const noop = () => {};

/** BIGINT (epoch ms, counters, caps) as JS numbers: every value we store is below 2^53. */
const INT8 = 20;
const getTypeParser: typeof pg.types.getTypeParser = (oid, format) =>
  oid === INT8 ? Number : pg.types.getTypeParser(oid, format);
const types = { getTypeParser };

export interface Pool {
  sql: Sql;
  end(): Promise<void>;
}

/**
 * `waitForDisk: false`: a commit returns before its WAL reaches the disk (synchronous_commit off).
 * WAL is flushed in order, so such a commit is durable once any later commit that waits is.
 * `byIndex`: the planner finds rows by an index wherever one serves (sequential scans, hash and
 * merge joins priced out), so that a plan cached for a connection while a table was nearly empty
 * (where reading it whole is cheapest) does not read it whole once it has grown. Planning every
 * run instead (plan_cache_mode force_custom_plan) cost PostgreSQL 13–21 µs more per keyed call.
 */
export function createPool(
  connectionString: string,
  opts: { schema: string | null; max: number; waitForDisk?: boolean; byIndex?: boolean },
): Pool {
  const settings = [
    ...(opts.schema ? [`-c search_path=${opts.schema}`] : []),
    ...(opts.waitForDisk === false ? ['-c synchronous_commit=off'] : []),
    ...(opts.byIndex ? ['-c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off'] : []),
  ];
  const pool = new pg.Pool({
    connectionString,
    max: opts.max,
    types,
    keepAlive: true,
    // Waiting for a connection never lasts forever: the request gets its 503 instead.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    ...(settings.length ? { options: settings.join(' ') } : {}),
  });
  // A pooled idle connection dropped by the server (restart, admin shutdown) is reported here;
  // the pool has already discarded it and the next query opens a new one.
  pool.on('error', noop);

  const begin: Sql['begin'] = async (fn) => {
    const client = await pool.connect();
    // Errors on a checked-out connection between queries would otherwise be unhandled; the
    // query in progress (or the next one) fails with them anyway.
    client.on('error', noop);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const tx = bind(client, () => Promise.reject(new Error('nested transactions are not supported')));
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => {
        broken = rollbackErr;
      });
      throw err;
    } finally {
      client.removeListener('error', noop);
      // A connection that could not roll back is closed rather than handed to the next caller.
      client.release(broken);
    }
  };
  return { sql: bind(pool, begin), end: () => pool.end() };
}
