/** `mod97 migrate-to postgres://...`: the SQLite database copied, table by table, into PostgreSQL. */
import { parseArgs } from 'node:util';
import { type CliConfig, DEFAULT_DATABASE_URL } from '../config.ts';
import { EXIT, UsageError, type CliIo } from './io.ts';

export const MIGRATE_TO_USAGE = `usage: mod97 migrate-to postgres://USER:PASSWORD@HOST:PORT/DATABASE [--replace]
Copies the SQLite database named by MOD97_DATABASE_URL (default ${DEFAULT_DATABASE_URL}) into
the PostgreSQL database given: every table (keys, the pepper, usage counters, payments,
imported data, ...), in one transaction, then prints the rows of each table on both sides. The
copy is kept only when every count is equal. Stop the service first: what it writes after the
copy began stays behind in SQLite.
--replace: empty the target's tables first (a target that holds any row is refused otherwise)
After: start the service with MOD97_DATABASE_URL set to the PostgreSQL URL (and the same
MOD97_KEY_PEPPER, if one is set).`;

const POSTGRES_URL = /^postgres(ql)?:\/\//;

export async function migrateToCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { replace: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.out(MIGRATE_TO_USAGE);
    return EXIT.ok;
  }
  const [target, ...more] = positionals;
  if (!target || more.length > 0) throw new UsageError('migrate-to takes one PostgreSQL URL', MIGRATE_TO_USAGE);
  if (!POSTGRES_URL.test(target)) throw new UsageError('the target must be a postgres:// URL', MIGRATE_TO_USAGE);
  const source = settings.databaseUrl;
  if (!source.startsWith('sqlite:'))
    throw new UsageError('MOD97_DATABASE_URL must name the SQLite database to copy (sqlite:PATH)', MIGRATE_TO_USAGE);
  // Loaded here only: the PostgreSQL driver is not needed by the other commands.
  const { copySqliteToPostgres, TargetNotEmpty } = await import('../store/migrate-to.ts');
  const { whereOf } = await import('../store/postgres/unreachable.ts');
  io.out(`copying ${source} into ${whereOf(new URL(target))}`);
  try {
    const counts = await copySqliteToPostgres(source, target, { replace: values.replace });
    const width = Math.max(...counts.map((c) => c.table.length));
    io.out(`${'table'.padEnd(width)}  sqlite  postgres`);
    for (const c of counts)
      io.out(`${c.table.padEnd(width)}  ${String(c.source).padStart(6)}  ${String(c.target).padStart(8)}`);
    io.out(
      `done: ${counts.length} tables copied, every count equal. Start the service with MOD97_DATABASE_URL set to the PostgreSQL URL.`,
    );
    return EXIT.ok;
  } catch (e) {
    if (e instanceof TargetNotEmpty) {
      io.err(`error: ${e.message}`);
      return EXIT.failed;
    }
    throw e;
  }
}
