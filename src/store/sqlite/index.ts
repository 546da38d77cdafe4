import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteDaily } from './daily.ts';
import { sqliteIdempotency } from './idempotency.ts';
import { MIGRATIONS, migrationSql } from '../migrations.ts';
import { guardStore } from '../guard.ts';
import type { Store } from '../types.ts';
import { isSqliteUnavailable } from '../unavailable.ts';
import { sqliteAlert } from './alert.ts';
import { sqliteCheckouts } from './checkouts.ts';
import { sqliteCounters } from './counters.ts';
import { sqliteKeys } from './keys.ts';
import { sqliteMailbox } from './mailbox.ts';
import { sqliteDatasets, sqliteSettings } from './meta.ts';
import { sqlitePayments } from './payments.ts';
import { durableWrites } from './durable.ts';
import { turnCommit } from './turn-commit.ts';

/** The file a `sqlite:PATH` URL names (`:memory:` for `sqlite::memory:`). */
export const sqlitePath = (url: string): string => url.replace(/^sqlite:/, '');

/** Opens (creating if needed) a SQLite database: `sqlite:PATH` or `sqlite::memory:`. */
export function openSqliteStore(url: string): Store {
  const path = sqlitePath(url);
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    // Readable by the owner alone, whatever the umask: it holds the keys' hashes. SQLite gives
    // its -wal and -shm files the database file's permissions.
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // Metering counters commit durable against a crash of the process; writes of value are made
  // durable against power loss one by one (durable.ts).
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  const durably = durableWrites(db);
  const keys = sqliteKeys(db, durably);
  const inTurn = turnCommit(db);
  const idempotency = sqliteIdempotency(db);
  return guardStore(
    {
      engine: 'sqlite',
      ...keys.keys,
      ...sqlitePayments(db, keys.forget, durably),
      ...sqliteCounters(db, inTurn, idempotency.writeHold),
      ...sqliteDatasets(db),
      ...sqliteSettings(db, durably),
      ...sqliteCheckouts(db, durably),
      ...sqliteMailbox(db, keys.forget, durably),
      ...sqliteAlert(db),
      ...sqliteDaily(db),
      ...idempotency.store,
      async ping() {
        db.prepare('SELECT 1').get();
      },
      async close() {
        idempotency.writeUnwritten();
        db.close();
      },
    },
    isSqliteUnavailable,
  );
}

function migrate(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const applied = new Set(
    db
      .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
      .all()
      .map((r) => r.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(migrationSql(m, 'sqlite'));
      record.run(m.version, m.name, Date.now());
    })();
  }
}
