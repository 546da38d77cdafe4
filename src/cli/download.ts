import { IMPORTERS, type ImportInput, importerFor } from '../data/importers/index.ts';

export interface Download {
  url: string;
  /** File name from Content-Disposition when the server gives one, else the URL. */
  name: string;
  bytes: Uint8Array;
  /** Last-Modified of the response, else the download day (YYYY-MM-DD), and which of the two. */
  date: NonNullable<ImportInput['download']>;
}

/** `MOD97_DATA_URL_<KIND>` (kind upper-cased, '-' as '_'); a comma list for several files. */
export const urlVariable = (kind: string): string => `MOD97_DATA_URL_${kind.toUpperCase().replace(/-/g, '_')}`;

export function urlsFor(kind: string, env: NodeJS.ProcessEnv): string[] {
  const configured = env[urlVariable(kind)];
  if (configured)
    return configured
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
  return importerFor(kind).defaultUrls;
}

export const updatableKinds = (): string[] => IMPORTERS.map((i) => i.kind);

const TIMEOUT_MS = 120_000;

/** One retry on a connection-level failure (a reused keep-alive socket the server had closed). */
async function fetchOnceMore(url: string): Promise<Response> {
  const get = () =>
    fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { 'user-agent': 'mod97-data-update' } });
  try {
    return await get();
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw err;
    return get();
  }
}

export async function download(url: string, now: number): Promise<Download> {
  const res = await fetchOnceMore(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const disposition = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '');
  const modified = Date.parse(res.headers.get('last-modified') ?? '');
  const date: Download['date'] = Number.isNaN(modified)
    ? { date: new Date(now).toISOString().slice(0, 10), basis: 'download_time' }
    : { date: new Date(modified).toISOString().slice(0, 10), basis: 'last_modified' };
  return { url, name: disposition?.[1] ? decodeURIComponent(disposition[1]) : url, bytes, date };
}
