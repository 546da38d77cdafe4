/**
 * PostgreSQL for tests: the server named by MOD97_TEST_POSTGRES_URL, and schemas of their own,
 * dropped afterwards, so that runs and files never collide.
 */
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import pg from 'pg';

export const pgUrl = process.env.MOD97_TEST_POSTGRES_URL;

/** A schema name nobody else uses. */
export const newSchemaName = (prefix = 'mod97_test') => `${prefix}_${randomBytes(6).toString('hex')}`;

/** The database URL that works inside `schema` (created by the store on first use). */
export function inSchema(schema: string, base = pgUrl): string {
  if (!base) throw new Error('MOD97_TEST_POSTGRES_URL is not set');
  return `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`;
}

/** One connection for a test's own statements (schemas, migrations): `unsafe` answers the rows. */
export async function pgAdmin(url: string): Promise<{
  unsafe(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  end(): Promise<void>;
}> {
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
