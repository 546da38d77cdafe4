import { closeSync, existsSync, mkdirSync, openSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { DomainError } from '../../errors.ts';
import { codeOf, messageOf } from '../../thrown.ts';
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

/** What a file system error says, in words, for the line that stops the start. */
const fsWords = (e: unknown): string => {
  const code = codeOf(e);
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOENT') return 'the file system does not allow it';
  return messageOf(e);
};

const unusable = (why: string) => new DomainError('invalid_config', `MOD97_DATABASE_URL: ${why}`);

/**
 * The database's folder, created level by level where missing. (Node's recursive mkdir loops for
 * ever on a folder the file system refuses to create, such as one under /proc.) What cannot be
 * created stops the start naming the folder and MOD97_DATABASE_URL (docs/operations.md).
 */
function ensureFolder(folder: string): void {
  const missing: string[] = [];
  let at = resolve(folder);
  for (;;) {
    let stat: Stats | undefined;
    try {
      stat = statSync(at);
    } catch (e) {
      // ENOTDIR: a file further up, found as the walk goes on
      const absent = codeOf(e) === 'ENOENT' || codeOf(e) === 'ENOTDIR';
      if (!absent || dirname(at) === at) throw unusable(`cannot use the folder ${at}: ${fsWords(e)}`);
    }
    if (stat?.isDirectory()) break;
    if (stat) throw unusable(`${at} is a file, not a folder: the database cannot be created under it`);
    missing.unshift(at);
    at = dirname(at);
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (e) {
      if (codeOf(e) !== 'EEXIST') throw unusable(`cannot create the folder ${dir}: ${fsWords(e)}`);
    }
  }
}

/** Opens (creating if needed) a SQLite database: `sqlite:PATH` or `sqlite::memory:`. */
export function openSqliteStore(url: string): Store {
  const path = sqlitePath(url);
  if (path !== ':memory:') {
    ensureFolder(dirname(path));
    // Readable by the owner alone, whatever the umask: it holds the keys' hashes. SQLite gives
    // its -wal and -shm files the database file's permissions.
    try {
      if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
    } catch (e) {
      throw unusable(`cannot create the database ${path}: ${fsWords(e)}`);
    }
  }
  const db = openDatabase(path);
  migrate(db);
  // Writes of value are made durable against power loss one by one (durable.ts).
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

/**
 * The database opened in WAL mode; a file that is not a SQLite database (or cannot be opened)
 * stops the start naming it and MOD97_DATABASE_URL.
 */
function openDatabase(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    db.pragma('journal_mode = WAL');
  } catch (e) {
    db?.close();
    const code = String(codeOf(e));
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw unusable(`${path} is not a SQLite database (${messageOf(e)}): name another file, or move this one away`);
    if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM'))
      throw unusable(`cannot open the database ${path}: ${messageOf(e)}`);
    throw e;
  }
  // Metering counters commit durable against a crash of the process; writes of value are made
  // durable against power loss one by one (durable.ts).
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
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
