/**
 * The worker thread in which the service downloads and parses the publishers' files for its
 * daily update, and `mod97 data import|update` reads theirs (update-in-worker.ts): whatever a
 * file does to memory or to the CPU happens here, under the worker's own heap limit, never on
 * the thread that answers requests or holds the database.
 */
import { readFileSync, statSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { fetchAndParse } from './download.ts';
import { checkFileSize, fileBound, ImportError, importerFor } from './importers/index.ts';
import type { ParsedDataset } from './types.ts';
import { messageOf } from '../thrown.ts';

export interface UpdateJob {
  id: number;
  kind: string;
  /** A publisher's URL to download (the update), or... */
  url?: string;
  /** ...a local file to read (`mod97 data import`). */
  file?: string;
  now: number;
  asOf?: string;
  maxBytes?: number;
  /** The EPC register a local file holds, when its name does not say. */
  scheme?: string;
}

/** A local file read and parsed; it is refused past its bound before it is read. */
function parseFile(job: UpdateJob & { file: string }): ParsedDataset<unknown> {
  checkFileSize(job.kind, job.file, statSync(job.file).size, job.maxBytes);
  // no file date here: a local file's modification time says when it was copied, not issued
  return importerFor(job.kind).parse({
    bytes: readFileSync(job.file),
    name: job.file,
    asOf: job.asOf,
    scheme: job.scheme,
    maxBytes: fileBound(job.kind, job.maxBytes),
  });
}

parentPort?.on('message', async (job: UpdateJob) => {
  try {
    const parsed =
      job.file !== undefined
        ? parseFile({ ...job, file: job.file })
        : await fetchAndParse(job.kind, job.url ?? '', job.now, job.asOf, job.maxBytes);
    parentPort?.postMessage({ id: job.id, parsed });
  } catch (err) {
    // an ImportError is the file's fault and is told as such; anything else is the worker's
    parentPort?.postMessage({ id: job.id, error: messageOf(err), refused: err instanceof ImportError });
  }
});
