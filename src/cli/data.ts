/** `mod97 data import|update|list`: reference data into the service's own database. */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BUNDLED_SOURCES } from '../data/bundled.ts';
import { type CliConfig, DEFAULT_DATABASE_URL } from '../config.ts';
import { dated, type UpdateOptions, updatableKinds, updateDatasets, urlVariable } from '../data/download.ts';
import { AS_OF_BASIS_WORDS, checkFileSize, ImportError, importFile } from '../data/importers/index.ts';
import { openStore } from '../store/index.ts';
import type { Store } from '../store/types.ts';
import { EXIT, UsageError, type CliIo } from './io.ts';
import { messageOf } from '../thrown.ts';

export const DATA_USAGE = `usage:
  mod97 data import <kind> <file> [--as-of YYYY-MM-DD] [--scheme SCT|SCT_INST|SDD_CORE|SDD_B2B|VOP] [--force]
  mod97 data update [kind...] [--force]   (no kind: every kind but schwifty-registry, which is
                                          downloaded only when named or once imported)
  mod97 data list
kinds: ${updatableKinds().join(', ')}
--force: take a file that yields no records, or fewer than half of the dataset it replaces (refused otherwise; a sanctions list is never replaced by an empty one)
--as-of: required when the file states no date of its own (sdn.csv, EPC, BLZ, GLEIF without a dated name); a date in the file wins
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
  if (asOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(asOf))
    throw new UsageError('--as-of takes a date YYYY-MM-DD', DATA_USAGE);
  if (!['list', 'import', 'update'].includes(command))
    throw new UsageError(`unknown data command "${command}"`, DATA_USAGE);
  if (command === 'import' && (rest.length !== 2 || !rest[0] || !rest[1]))
    throw new UsageError('data import takes <kind> <file>', DATA_USAGE);
  const store = await openStore(settings.databaseUrl);
  try {
    if (command === 'list') return await list(store, io);
    if (command === 'import') {
      const [kind, file] = rest;
      // a file past its bound is refused before it is read
      checkFileSize(kind, file, statSync(file).size);
      // no file date here: a local file's modification time says when it was copied, not issued
      const parsed = await importFile(
        store,
        kind,
        { bytes: readFileSync(file), name: file, asOf, scheme: values.scheme },
        now(),
        { force: values.force },
      );
      io.out(`imported ${parsed.kind}: ${parsed.records.length} records, ${dated(parsed)}, source: ${parsed.source}`);
      return EXIT.ok;
    }
    return await update(store, rest.length ? rest : undefined, settings, io, now, { asOf, force: values.force });
  } catch (e) {
    io.err(e instanceof ImportError ? e.message : `error: ${messageOf(e)}`);
    return EXIT.failed;
  } finally {
    await store.close();
  }
}

async function list(store: Store, io: CliIo): Promise<number> {
  const datasets = await store.listDatasets();
  io.out(datasets.length ? 'imported:' : 'imported: none');
  for (const d of datasets) {
    // what the date rests on, where it was recorded (datasets imported before it was kept show none)
    const basis = d.asOfBasis ? ` (${AS_OF_BASIS_WORDS[d.asOfBasis]})` : '';
    const imported = new Date(d.importedAt).toISOString();
    io.out(`  ${d.kind}\t${d.count} records\tas of ${d.asOf}${basis}\timported ${imported}\t${d.source}`);
  }
  io.out('bundled:');
  for (const s of Object.values(BUNDLED_SOURCES)) io.out(`  ${s.name}\tas of ${s.as_of ?? 'undated'}\t${s.licence}`);
  return EXIT.ok;
}

/** Downloads and imports each kind; one failing download does not stop the others. */
async function update(
  store: Store,
  kinds: string[] | undefined,
  settings: CliConfig,
  io: CliIo,
  now: () => number,
  opts: UpdateOptions,
): Promise<number> {
  const report = await updateDatasets(store, kinds, settings.dataUrls, now, opts);
  for (const line of report.updated) io.out(`updated ${line}`);
  for (const line of report.failures) io.err(line.replace(/^(\S+) from (\S+): /, '$1 from $2 failed: '));
  return report.failures.length ? EXIT.failed : EXIT.ok;
}
