/**
 * `mod97 backup FILE`: a consistent copy of the service's SQLite database, taken while the
 * service runs (SQLite's online backup), checked, then moved into place. PostgreSQL has its own
 * tool for this, pg_dump: the command says so.
 */
import { chmodSync, closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { type CliConfig, DEFAULT_DATABASE_URL } from '../config.ts';
import { EXIT, UsageError, type CliIo } from './io.ts';

export const BACKUP_USAGE = `usage: mod97 backup FILE
Writes a consistent copy of the SQLite database named by MOD97_DATABASE_URL (default
${DEFAULT_DATABASE_URL}) to FILE while the service keeps serving, checks the copy
(PRAGMA integrity_check) and only then puts it at FILE. FILE must not exist yet; it is
readable by its owner only (mode 0600): it holds the key hashes, and the pepper unless
MOD97_KEY_PEPPER is set.
Restore: stop the service, put the copy in place of the database file (and remove its -wal and
-shm files), start the service.
PostgreSQL: use pg_dump; with a PostgreSQL MOD97_DATABASE_URL this command prints the pg_dump
command for it, ready to run (mod97's own ?max= and ?schema= taken out, --schema given).`;

/** `text` quoted for a POSIX shell. */
const shellQuoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The pg_dump command for a PostgreSQL MOD97_DATABASE_URL, ready to run: mod97's own parameters
 * (`max`, `schema`) taken out of the URL, as pg_dump refuses them, `?schema=` given as
 * `--schema`, and the password left out (never printed).
 */
function pgDumpCommand(url: string): string {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('max');
  // Never printed: the password, wherever the URL holds it (libpq and node-postgres both read it from the query too).
  for (const secret of ['password', 'sslpassword']) parsed.searchParams.delete(secret);
  parsed.password = '';
  const args = ['pg_dump', '--format=custom', '--file=mod97.dump'];
  if (schema) args.push(`--schema=${schema}`); // a lower-case SQL name (postgresSettings)
  return [...args, shellQuoted(parsed.toString())].join(' ');
}

/** Pages copied per step: all of them, so that one step reads one snapshot (see below). */
const ALL_PAGES = 2 ** 30;

export async function backupCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.out(BACKUP_USAGE);
    return EXIT.ok;
  }
  const url = settings.databaseUrl;
  if (/^postgres(ql)?:\/\//.test(url)) {
    io.err('error: MOD97_DATABASE_URL is a PostgreSQL database: back it up with pg_dump, here:');
    io.err(`  ${pgDumpCommand(url)}`);
    io.err(
      'pg_dump asks for the password, or reads it from PGPASSWORD or ~/.pgpass (it is not printed). Restore with pg_restore --no-owner --dbname=\'<the same URL>\' mod97.dump (docs/operations.md, "Backup and restore").',
    );
    return EXIT.usage;
  }
  if (!url.startsWith('sqlite:'))
    throw new UsageError('MOD97_DATABASE_URL must start with sqlite: or postgres://', BACKUP_USAGE);
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError('backup takes one FILE', BACKUP_USAGE);
  const source = url.slice('sqlite:'.length);
  if (source === ':memory:') throw new UsageError('an in-memory database has nothing to back up', BACKUP_USAGE);
  const target = resolve(positionals[0]);
  if (!existsSync(source)) {
    io.err(`error: no database at ${source} (MOD97_DATABASE_URL): nothing was written`);
    return EXIT.failed;
  }
  if (existsSync(target)) {
    io.err(`error: ${target} exists already: choose a new name (e.g. with the date), nothing was written`);
    return EXIT.failed;
  }

  const folder = dirname(target);
  if (!existsSync(folder)) {
    io.err(`error: the folder ${folder} does not exist: create it first (mkdir -p ${folder}); nothing was written`);
    return EXIT.failed;
  }
  if (!statSync(folder).isDirectory()) {
    io.err(`error: ${folder} is a file, not a folder: choose a FILE in a folder; nothing was written`);
    return EXIT.failed;
  }

  // The copy is made beside FILE and renamed once checked: FILE is a whole, checked copy or absent.
  const partial = join(folder, `.${basename(target)}.partial`);
  rmSync(partial, { force: true });
  // The copy holds key hashes and, without MOD97_KEY_PEPPER, the pepper itself: owner only. The
  // file is made 0600 before a byte is copied into it (SQLite keeps an existing file's mode, and
  // gives its journal the same), so it is never readable by others, whatever the umask.
  closeSync(openSync(partial, 'wx', 0o600));
  chmodSync(partial, 0o600);
  // No migration, no pragma that writes: a backup changes nothing in the database it copies.
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // SQLite restarts an online backup when another process writes between two of its steps, so
    // small steps under steady writes might never end. One step copies every page inside one
    // read transaction: a snapshot, whatever the service commits meanwhile (WAL readers never
    // wait for writers).
    const { totalPages } = await db.backup(partial, { progress: () => ALL_PAGES });
    const copy = new Database(partial, { fileMustExist: true });
    let check: unknown;
    try {
      check = copy.pragma('integrity_check', { simple: true });
    } finally {
      copy.close();
    }
    if (check !== 'ok') {
      rmSync(partial, { force: true });
      io.err(`error: the copy failed its integrity check (${String(check)}): nothing was written`);
      return EXIT.failed;
    }
    renameSync(partial, target);
    io.out(`backup: ${source} copied to ${target} (${totalPages} pages), integrity_check ok`);
    return EXIT.ok;
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
}
