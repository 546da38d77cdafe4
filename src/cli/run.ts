import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BUNDLED_SOURCES } from '../data/bundled.ts';
import { AS_OF_BASIS_WORDS, ImportError, importFile } from '../data/importers/index.ts';
import type { ParsedDataset } from '../data/types.ts';
import { openStore } from '../store/index.ts';
import type { Store } from '../store/types.ts';
import { download, updatableKinds, urlsFor, urlVariable } from './download.ts';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `usage:
  mod97 mcp   (an MCP server on stdio for the service at MOD97_URL, with MOD97_API_KEY)
  mod97 data import <kind> <file> [--as-of YYYY-MM-DD] [--scheme SCT|SCT_INST|SDD_CORE|SDD_B2B]
  mod97 data update [kind...]
  mod97 data list
kinds: ${updatableKinds().join(', ')}
--as-of: required when the file states no date of its own (sdn.csv, EPC, BLZ, GLEIF without a dated name); a date in the file wins
database: MOD97_DATABASE_URL (default sqlite:./data/mod97.db)
download addresses: ${updatableKinds().map(urlVariable).join(', ')}`;

class UsageError extends Error {}

/** Runs one command line; returns the exit code (0 ok, 1 failed, 2 wrong usage). */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  now: () => number = Date.now,
): Promise<number> {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'as-of': { type: 'string' }, scheme: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    const [group, command, ...rest] = positionals;
    if (group === 'mcp') {
      // stdout is the MCP channel from here on: nothing else may be written to it.
      if (command !== undefined) throw new UsageError('mcp takes no arguments: set MOD97_URL and MOD97_API_KEY');
      const { runStdioBridge } = await import('../mcp/stdio.ts');
      await runStdioBridge({ url: env.MOD97_URL || 'http://127.0.0.1:3000', apiKey: env.MOD97_API_KEY || undefined });
      return 0;
    }
    if (values.help || group !== 'data' || !command)
      throw new UsageError(group && group !== 'data' ? `unknown command "${group}"` : '');
    const asOf = values['as-of'];
    if (asOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(asOf))
      throw new UsageError('--as-of takes a date YYYY-MM-DD');
    const store = await openStore(env.MOD97_DATABASE_URL || 'sqlite:./data/mod97.db');
    try {
      if (command === 'list') return await list(store, io);
      if (command === 'import') {
        const [kind, file] = rest;
        if (!kind || !file || rest.length > 2) throw new UsageError('data import takes <kind> <file>');
        // no file date here: a local file's modification time says when it was copied, not issued
        const parsed = await importFile(
          store,
          kind,
          { bytes: readFileSync(file), name: file, asOf, scheme: values.scheme },
          now(),
        );
        io.out(`imported ${parsed.kind}: ${parsed.records.length} records, ${dated(parsed)}, source: ${parsed.source}`);
        return 0;
      }
      if (command === 'update') return await update(store, rest.length ? rest : updatableKinds(), env, io, now, asOf);
      throw new UsageError(`unknown data command "${command}"`);
    } finally {
      await store.close();
    }
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.message) io.err(e.message);
      io.err(USAGE);
      return 2;
    }
    io.err(e instanceof ImportError ? e.message : `error: ${(e as Error).message}`);
    return 1;
  }
}

/** "as of <date> (<what the date rests on>)", so that a weak date is never shown as a strong one. */
const dated = (p: ParsedDataset<unknown>): string => `as of ${p.asOf} (${AS_OF_BASIS_WORDS[p.asOfBasis]})`;

async function list(store: Store, io: CliIo): Promise<number> {
  const datasets = await store.listDatasets();
  io.out(datasets.length ? 'imported:' : 'imported: none');
  for (const d of datasets)
    io.out(
      `  ${d.kind}\t${d.count} records\tas of ${d.asOf}\timported ${new Date(d.importedAt).toISOString()}\t${d.source}`,
    );
  io.out('bundled:');
  for (const s of Object.values(BUNDLED_SOURCES)) io.out(`  ${s.name}\tas of ${s.as_of ?? 'undated'}\t${s.licence}`);
  return 0;
}

/** Downloads and imports each kind; one failing download does not stop the others. */
async function update(
  store: Store,
  kinds: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  now: () => number,
  asOf?: string,
): Promise<number> {
  let failed = 0;
  for (const kind of kinds) {
    for (const url of urlsFor(kind, env)) {
      try {
        const file = await download(url, now());
        const parsed = await importFile(
          store,
          kind,
          { bytes: file.bytes, name: file.name, download: file.date, asOf },
          now(),
        );
        io.out(`updated ${parsed.kind} from ${url}: ${parsed.records.length} records, ${dated(parsed)}`);
      } catch (e) {
        failed++;
        io.err(`${kind} from ${url} failed: ${(e as Error).message}`);
      }
    }
  }
  return failed ? 1 : 0;
}
