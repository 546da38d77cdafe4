import { DomainError } from '../../errors.ts';
import { pgDaily } from './daily.ts';
import { pgIdempotency } from './idempotency.ts';
import { MIGRATIONS, migrationSql } from '../migrations.ts';
import { guardStore } from '../guard.ts';
import type { Store } from '../types.ts';
import { pgAlert } from './alert.ts';
import { pgCheckouts } from './checkouts.ts';
import { pgCounters } from './counters.ts';
import { pgKeyAdmissions } from './key-admissions.ts';
import { fillChargePeriods, pgKeys } from './keys.ts';
import { pgMailbox } from './mailbox.ts';
import { pgDatasets, pgSettings } from './meta.ts';
import { pgPayments } from './payments.ts';
import { withRetry } from './retry.ts';
import { createPool, type Sql } from './sql.ts';
import { unreachable } from './unreachable.ts';

import type { Pg } from './pg.ts';

/** The driver's connection string, and our own `?schema=` and `?max=` read out of the URL. */
export function postgresSettings(url: string): { connectionString: string; schema: string | null; max: number } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new DomainError('invalid_config', 'The schema in MOD97_DATABASE_URL must be a lower-case SQL name.');
  }
  const max = Number(parsed.searchParams.get('max') ?? 10);
  if (!Number.isInteger(max) || max < 1) {
    throw new DomainError('invalid_config', 'The max in MOD97_DATABASE_URL must be a whole number of connections.');
  }
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('max');
  return { connectionString: parsed.toString(), schema, max };
}

/**
 * Whether the database (its `?schema=`, else `public`) holds a mod97 store, found without
 * creating or changing anything: for commands that must not create a database.
 */
export async function postgresStoreExists(url: string): Promise<boolean> {
  const { connectionString, schema } = postgresSettings(url);
  const pool = createPool(connectionString, { schema, max: 1 });
  try {
    const [row] = await pool.sql<{ found: string | null }[]>`SELECT to_regclass('schema_migrations')::text AS found`;
    return row?.found != null;
  } catch (err) {
    throw unreachable(new URL(url), err) ?? err;
  } finally {
    await pool.end();
  }
}

/** Connections for the Idempotency-Key statements (idempotency.ts): the batches in flight. */
const UNFLUSHED_MAX = 4;

/**
 * Opens a PostgreSQL store: `postgres://user:pass@host:port/db`. `?max=N` sets the pool's
 * connections (default 10). `?schema=NAME` puts every table in that schema (created if
 * missing) instead of `public`: tests and benchmarks use their own.
 */
export async function openPostgresStore(url: string, named = 'MOD97_DATABASE_URL'): Promise<Store> {
  const { connectionString, schema, max } = postgresSettings(url);
  const pool = createPool(connectionString, { schema, max });
  // Idempotency-Key reservations and answers commit without waiting for the disk, and find
  // entries by their index however small the table was when planned (pgIdempotency says why).
  const unflushed = createPool(connectionString, {
    schema,
    max: Math.min(max, UNFLUSHED_MAX),
    waitForDisk: false,
    byIndex: true,
  });
  const sql = pool.sql;
  const pg: Pg = {
    sql,
    idempotent: (run) => withRetry('idempotent', run),
    once: (run) => withRetry('once', run),
  };
  try {
    await pg.idempotent(() => migrate(sql, schema));
  } catch (err) {
    await Promise.all([pool.end(), unflushed.end()]);
    throw unreachable(new URL(url), err, named) ?? err;
  }
  // Connection losses are already typed by retry.ts.
  return guardStore(
    {
      engine: 'postgres',
      ...pgKeys(pg),
      ...pgKeyAdmissions(pg),
      ...pgPayments(pg),
      ...pgCounters(pg),
      ...pgDatasets(pg),
      ...pgSettings(pg),
      ...pgCheckouts(pg),
      ...pgMailbox(pg),
      ...pgAlert(pg),
      ...pgDaily(pg),
      ...pgIdempotency(pg, unflushed.sql),
      async ping() {
        await pg.idempotent(() => sql`SELECT 1`);
      },
      async close() {
        await Promise.all([pool.end(), unflushed.end()]);
      },
    },
    () => false,
  );
}

/**
 * Applies missing migrations in one transaction holding an advisory lock, so several
 * processes starting together apply each version once and none sees a half-made schema.
 * The whole transaction rolls back on failure, which makes it safe to retry. Rows left without
 * a charge period get theirs (keys.ts, fillChargePeriods).
 */
async function migrate(sql: Sql, schema: string | null): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`mod97:migrate:${schema ?? 'public'}`}))`;
    if (schema) await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;
    const applied = new Set(
      (await tx<{ version: number }[]>`SELECT version FROM schema_migrations`).map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      const sql = migrationSql(m, 'postgres');
      if (sql) await tx.exec(sql);
      await tx`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}::integer, ${m.name}, ${Date.now()}::bigint)`;
    }
    await fillChargePeriods(tx);
  });
}
