/**
 * PostgreSQL for tests: the server named by MOD97_TEST_POSTGRES_URL, and schemas of their own,
 * dropped afterwards, so that runs and files never collide.
 */
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import type { Store } from '../../src/store/types.ts';

export const pgUrl = process.env.MOD97_TEST_POSTGRES_URL;

/** A schema name nobody else uses. */
export const newSchemaName = (prefix = 'mod97_test') => `${prefix}_${randomBytes(6).toString('hex')}`;

/** The database URL that works inside `schema` (created by the store on first use). */
export function inSchema(schema: string, base = pgUrl): string {
  if (!base) throw new Error('MOD97_TEST_POSTGRES_URL is not set');
  return `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`;
}

/** One connection for a test's own statements (schemas, migrations): `unsafe` answers the rows. */
export interface PgAdmin {
  unsafe(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  end(): Promise<void>;
}

export async function pgAdmin(url: string): Promise<PgAdmin> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    unsafe: async (text, params) => (await client.query(text, params)).rows,
    end: () => client.end(),
  };
}

export async function dropSchemas(...schemas: string[]): Promise<void> {
  if (!pgUrl) return;
  const admin = await pgAdmin(pgUrl);
  try {
    for (const schema of schemas) await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** A URL in a fresh schema, dropped after the current suite (call it inside a test or a hook's suite). */
export function throwawaySchema(prefix?: string): { schema: string; url: string } {
  const schema = newSchemaName(prefix);
  after(() => dropSchemas(schema));
  return { schema, url: inSchema(schema) };
}

/** What a suite of a PostgreSQL store's own tests works with (storeSuite). */
export interface StoreSuite {
  readonly schema: string;
  /** The store under test, opened before the suite's tests. */
  store: Store;
  /** A connection of the tests' own in the schema, opened with the store. */
  admin: PgAdmin;
  /** Another connection in the schema (its search_path set), for a test to hold or end. */
  connect(): Promise<PgAdmin>;
  /**
   * Resolves true once some session waits for a lock that the session `pid` holds (one look per
   * query), or false once `orUntil()` is true first.
   */
  untilWaitedFor(pid: unknown, orUntil?: () => boolean): Promise<boolean>;
}

/**
 * A fresh schema for the current suite: its store and connection opened before its tests; after
 * them, closed and the schema dropped.
 */
export function storeSuite(): StoreSuite {
  const schema = newSchemaName();
  const connect = async () => {
    const connection = await pgAdmin(inSchema(schema));
    await connection.unsafe(`SET search_path TO ${schema}`);
    return connection;
  };
  const waitedFor = 'SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))';
  const untilWaitedFor = async (pid: unknown, orUntil = () => false) => {
    for (;;) {
      if ((await suite.admin.unsafe(waitedFor, [pid])).length) return true;
      if (orUntil()) return false;
    }
  };
  // store and admin are set by the hook below, before any test reads them.
  const suite = { schema, connect, untilWaitedFor } as StoreSuite;
  before(async () => {
    suite.store = await openPostgresStore(inSchema(schema));
    suite.admin = await connect();
  });
  after(async () => {
    await suite.admin?.end();
    await suite.store?.close();
    await dropSchemas(schema);
  });
  return suite;
}
