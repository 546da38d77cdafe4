/**
 * Moving a SQLite database to PostgreSQL (`mod97 migrate-to`). Both engines share one schema
 * (migrations.ts writes SQL that means the same in both), so the move is a copy of every table,
 * row for row: keys with their hashes, the pepper kept in `settings`, counters, payments,
 * imported datasets, checkouts, mailbox codes, everything. Going through the Store interface
 * instead would need a reader for every table and could miss one added later; a table copy
 * cannot.
 *
 * The source is read in one SQLite read transaction (a snapshot, even while a service writes),
 * the target written in one PostgreSQL transaction: it holds the whole copy or nothing. Before
 * that transaction commits, every table's rows are counted on both sides; a difference rolls it
 * back.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DomainError } from '../errors.ts';
import { openPostgresStore, postgresSettings } from './postgres/index.ts';
import { fillChargePeriods } from './postgres/keys.ts';
import { createPool, type Sql } from './postgres/sql.ts';
import { openSqliteStore, sqlitePath } from './sqlite/index.ts';

export interface TableCopy {
  table: string;
  /** Rows in the SQLite table when it was read. */
  source: number;
  /** Rows in the PostgreSQL table after the copy, counted inside the copy's transaction. */
  target: number;
}

/** The schema's own bookkeeping: each engine keeps its own record of the migrations applied. */
const NOT_COPIED = new Set(['schema_migrations']);
/** Rows sent per statement, and roughly the most JSON bytes (a dataset row alone can be megabytes). */
const BATCH_ROWS = 500;
const BATCH_BYTES = 8 * 1024 * 1024;

const SQL_NAME = /^[a-z_][a-z0-9_]*$/;

/** Counted rows per table of the target that are not empty. */
export class TargetNotEmpty extends Error {
  constructor(readonly tables: { table: string; rows: number }[]) {
    super(
      `the target database is not empty (${tables.map((t) => `${t.table}: ${t.rows}`).join(', ')}): nothing was copied. Copy into an empty database, or give --replace to empty these tables first.`,
    );
  }
}

/** 64-bit integers are read exactly (as BigInt) and sent as text, which PostgreSQL reads into BIGINT. */
const jsonRows = (rows: unknown[]): string =>
  JSON.stringify(rows, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));

export async function copySqliteToPostgres(
  sqliteUrl: string,
  postgresUrl: string,
  opts: { replace?: boolean } = {},
): Promise<TableCopy[]> {
  const path = sqlitePath(sqliteUrl);
  if (path === ':memory:') throw new DomainError('invalid_config', 'an in-memory database has nothing to copy');
  if (!existsSync(path)) throw new DomainError('invalid_config', `no SQLite database at ${path} (MOD97_DATABASE_URL)`);
  // Both brought to this release's schema first, by the stores themselves (the same migrations).
  await openSqliteStore(sqliteUrl).close();
  // The target is the command's argument: the error names it as such, not as MOD97_DATABASE_URL.
  await (await openPostgresStore(postgresUrl, 'the URL given to mod97 migrate-to')).close();

  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.defaultSafeIntegers(true);
  const { connectionString, schema } = postgresSettings(postgresUrl);
  const pool = createPool(connectionString, { schema, max: 1 });
  try {
    db.exec('BEGIN');
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all()
      .map((t) => t.name)
      .filter((name) => !NOT_COPIED.has(name));
    const unusual = tables.find((name) => !SQL_NAME.test(name));
    if (unusual !== undefined) throw new Error(`unexpected table name in the SQLite database: ${unusual}`);
    const copied = await pool.sql.begin(async (tx) => {
      await emptyTarget(tx, tables, opts.replace === true);
      const counts: TableCopy[] = [];
      for (const table of tables) counts.push(await copyTable(db, tx, table));
      await fillChargePeriods(tx); // SQLite leaves the column empty (migrations.ts, version 20)
      const differing = counts.filter((c) => c.source !== c.target);
      if (differing.length > 0)
        throw new Error(
          `row counts differ after the copy (${differing.map((c) => `${c.table}: ${c.source} in SQLite, ${c.target} in PostgreSQL`).join('; ')}): nothing was copied`,
        );
      return counts;
    });
    db.exec('COMMIT');
    return copied;
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
    await pool.end();
  }
}

async function rowsIn(tx: Sql, table: string): Promise<number> {
  const [row] = await tx<{ n: number }[]>`SELECT COUNT(*)::bigint AS n FROM ${tx.unsafe(table)}`;
  return Number(row.n);
}

/** Refuses a target holding any row (unless `replace`, which empties the tables copied into). */
async function emptyTarget(tx: Sql, tables: string[], replace: boolean): Promise<void> {
  const filled: { table: string; rows: number }[] = [];
  for (const table of tables) {
    const [exists] = await tx<{ found: string | null }[]>`SELECT to_regclass(${table})::text AS found`;
    if (!exists.found)
      throw new Error(`the PostgreSQL database has no table ${table}: is it the same release of mod97?`);
    const rows = await rowsIn(tx, table);
    if (rows > 0) filled.push({ table, rows });
  }
  if (filled.length === 0) return;
  if (!replace) throw new TargetNotEmpty(filled);
  for (const { table } of filled) await tx`DELETE FROM ${tx.unsafe(table)}`;
}

async function copyTable(db: Database.Database, tx: Sql, table: string): Promise<TableCopy> {
  const inTarget = new Set(
    (
      await tx<{ name: string }[]>`SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table}`
    ).map((c) => c.name),
  );
  // A column only SQLite has stays behind: the order its Idempotency-Key entries were written in
  // (idempotency_keys.seq, migrations.ts version 21), which PostgreSQL looks up by key instead.
  const columns = db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
    .all()
    .map((c) => c.name)
    .filter((name) => inTarget.has(name));
  const unusual = columns.find((name) => !SQL_NAME.test(name));
  if (unusual !== undefined) throw new Error(`unexpected column name in ${table}: ${unusual}`);
  const list = columns.join(', ');
  // Each batch goes as one JSON parameter that PostgreSQL turns into rows of the table's own types.
  const insert = (json: string) =>
    tx`INSERT INTO ${tx.unsafe(`${table} (${list})`)} SELECT ${tx.unsafe(list)} FROM json_populate_recordset(NULL::${tx.unsafe(table)}, ${json}::json)`;
  let batch: unknown[] = [];
  let bytes = 0;
  for (const row of db.prepare(`SELECT ${list} FROM ${table}`).iterate()) {
    batch.push(row);
    bytes += jsonRows([row]).length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
      await insert(jsonRows(batch));
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) await insert(jsonRows(batch));
  const [{ n }] = db.prepare<[], { n: bigint }>(`SELECT COUNT(*) AS n FROM ${table}`).all();
  return { table, source: Number(n), target: await rowsIn(tx, table) };
}
