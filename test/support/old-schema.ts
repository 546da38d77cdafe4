/** A SQLite database made by an earlier release: every migration before `version` applied, as that release would have. */
import Database from 'better-sqlite3';
import { MIGRATIONS, migrationSql } from '../../src/store/migrations.ts';

/** Opens `path` at the schema just before `version`; `appliedAt` is the time recorded for each migration. */
export function sqliteBefore(path: string, version: number, appliedAt = 0): Database.Database {
  const db = new Database(path);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const record = db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)');
  for (const m of MIGRATIONS.filter((m) => m.version < version)) {
    db.exec(migrationSql(m, 'sqlite'));
    record.run(m.version, m.name, appliedAt);
  }
  return db;
}
