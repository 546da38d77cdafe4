/** Migration 11 moves a download-dated dataset's caveat out of its source name into as_of_basis. */
import { pgAdmin } from '../support/pg.ts';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrationSql } from '../../src/store/migrations.ts';

const OLD_ROWS = [
  ['ofac-sdn', "OFAC SDN list (sdn.csv) [as_of is the download's Last-Modified date; the file states no date]"],
  [
    'epc-sct',
    'EPC Register of Participants, SCT [as_of is the day of download; neither the file nor the server states a date]',
  ],
  ['six-bankmaster', 'SIX BankMaster V3 created 2025-09-01 16:30'],
];
const EXPECTED = [
  { kind: 'epc-sct', source: 'EPC Register of Participants, SCT', as_of_basis: 'download_time' },
  { kind: 'ofac-sdn', source: 'OFAC SDN list (sdn.csv)', as_of_basis: 'last_modified' },
  { kind: 'six-bankmaster', source: 'SIX BankMaster V3 created 2025-09-01 16:30', as_of_basis: null },
];
const before11 = MIGRATIONS.filter((m) => m.version < 11);
const v11 = MIGRATIONS.find((m) => m.version === 11)!;
const insert =
  "INSERT INTO datasets (kind, source, as_of, imported_at, record_count, records) VALUES ($1, $2, '2026-11-01', 0, 0, '[]')";

test('SQLite: migration 11 takes the caveat out of the source name', () => {
  const db = new Database(':memory:');
  for (const m of before11) db.exec(migrationSql(m, 'sqlite'));
  for (const [kind, source] of OLD_ROWS) db.prepare(insert.replace('$1', '?').replace('$2', '?')).run(kind, source);
  db.exec(migrationSql(v11, 'sqlite'));
  assert.deepEqual(db.prepare('SELECT kind, source, as_of_basis FROM datasets ORDER BY kind').all(), EXPECTED);
  db.close();
});

const pgUrl = process.env.MOD97_TEST_POSTGRES_URL;
test('PostgreSQL: migration 11 takes the caveat out of the source name', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, async () => {
  const schema = `mod97_m11_${randomBytes(6).toString('hex')}`;
  const sql = await pgAdmin(pgUrl!);
  try {
    await sql.unsafe(`CREATE SCHEMA ${schema}`);
    await sql.unsafe(`SET search_path TO ${schema}`);
    for (const m of before11) await sql.unsafe(migrationSql(m, 'postgres'));
    for (const [kind, source] of OLD_ROWS) await sql.unsafe(insert, [kind!, source!]);
    await sql.unsafe(migrationSql(v11, 'postgres'));
    const rows = await sql.unsafe('SELECT kind, source, as_of_basis FROM datasets ORDER BY kind');
    assert.deepEqual(
      rows.map((r) => ({ ...r })),
      EXPECTED,
    );
  } finally {
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await sql.end();
  }
});
