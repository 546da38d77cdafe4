/**
 * The worker thread in which the service downloads and parses the publishers' files for its
 * daily update, and `mod97 data import|update` does the whole of its work (update-in-worker.ts):
 * whatever a file does to memory or to the CPU happens here, under the worker's own heap limit,
 * never on the thread that answers requests.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { DataUrls } from '../config.ts';
import { openStore } from '../store/index.ts';
import { dated, fetchAndParse, type UpdateReport, updateDatasets } from './download.ts';
import {
  checkFileSize,
  fileBound,
  ImportError,
  importerFor,
  refuseOversized,
  storeDataset,
} from './importers/index.ts';
import { mib } from './importers/types.ts';
import type { ParsedDataset } from './types.ts';
import { messageOf } from '../thrown.ts';
import { counted } from '../thousands.ts';

/** The service's daily update: one file downloaded and parsed; the service stores it. */
export interface ParseJob {
  type: 'parse';
  id: number;
  kind: string;
  url: string;
  now: number;
  asOf?: string;
  maxBytes?: number;
}

/** `mod97 data import`: a local file read, parsed and stored, here. */
export interface ImportJob {
  type: 'import';
  id: number;
  databaseUrl: string;
  kind: string;
  file: string;
  now: number;
  asOf?: string;
  /** The EPC register the file holds, when its name does not say. */
  scheme?: string;
  force?: boolean;
}

/** `mod97 data update`: each kind downloaded, parsed and stored, here. */
export interface UpdateJob {
  type: 'update';
  id: number;
  databaseUrl: string;
  /** Undefined: the kinds an update takes by default (download.ts, defaultKinds). */
  kinds?: string[];
  urls: DataUrls;
  /** The command's clock: every file of the update is dated and recorded by it. */
  now: number;
  asOf?: string;
  force?: boolean;
}

export type WorkerJob = ParseJob | ImportJob | UpdateJob;

/**
 * A local file read and parsed; it is refused past its bound before it is read. A folder is
 * read by the kinds that take one (an unpacked package), under the same bound. A kind that
 * streams (OFAC's sdn_advanced.xml) is fed the file chunk by chunk, never holding it whole.
 */
function parseFile(job: ImportJob): ParsedDataset<unknown> {
  const importer = importerFor(job.kind);
  // no file date here: a local file's modification time says when it was copied, not issued
  const input = { name: job.file, asOf: job.asOf, scheme: job.scheme, maxBytes: fileBound(job.kind) };
  const stat = statSync(job.file);
  if (stat.isDirectory()) {
    if (!importer.parseFolder) throw new ImportError(`${job.file} is a folder: ${job.kind} imports one file`);
    return importer.parseFolder(job.file, input);
  }
  checkFileSize(job.kind, job.file, stat.size);
  if (importer.stream) {
    const reader = importer.stream(input);
    readBounded(job.file, job.kind, input.maxBytes, (chunk) => reader.write(chunk));
    return reader.end();
  }
  const chunks: Buffer[] = [];
  const total = readBounded(job.file, job.kind, input.maxBytes, (chunk) => chunks.push(chunk));
  return importer.parse({ ...input, bytes: Buffer.concat(chunks, total) });
}

/**
 * Reads the file in chunks of 1 MiB, each handed to `take`, until its end or one byte past
 * `bound`, which is refused: a pipe, a device (/dev/zero) or a file still growing has no size
 * to check first, and is never read past the bound. The number of bytes read.
 */
function readBounded(file: string, kind: string, bound: number, take: (chunk: Buffer) => void): number {
  const fd = openSync(file, 'r');
  try {
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, bound + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return total;
      total += read;
      if (total > bound)
        throw new ImportError(
          `${file} goes on past the ${mib(bound)} bound for one ${kind} file (a pipe or device without an end?); nothing changed`,
        );
      take(chunk.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
}

/** The line `mod97 data import` prints. */
async function importFile(job: ImportJob): Promise<string> {
  const parsed = parseFile(job);
  const store = await openStore(job.databaseUrl);
  try {
    await storeDataset(store, parsed, job.now, { force: job.force });
  } finally {
    await store.close();
  }
  return `imported ${parsed.kind}: ${counted(parsed.records.length, 'record')}, ${dated(parsed)}, source: ${parsed.source}`;
}

async function update(job: UpdateJob): Promise<UpdateReport> {
  const store = await openStore(job.databaseUrl);
  try {
    return await updateDatasets(store, job.kinds, job.urls, () => job.now, { asOf: job.asOf, force: job.force });
  } finally {
    await store.close();
  }
}

function run(job: WorkerJob): Promise<unknown> {
  if (job.type === 'import') return importFile(job);
  if (job.type === 'update') return update(job);
  // the daily update: a dataset too large to store is refused here, before it is copied to the service
  return fetchAndParse(job.kind, job.url, job.now, job.asOf, job.maxBytes).then((parsed) => {
    refuseOversized(parsed);
    return parsed;
  });
}

parentPort?.on('message', async (job: WorkerJob) => {
  try {
    const result = await run(job);
    parentPort?.postMessage({ id: job.id, result });
  } catch (err) {
    // an ImportError is the file's fault and is told as such; anything else is the worker's
    parentPort?.postMessage({ id: job.id, error: messageOf(err), refused: err instanceof ImportError });
  }
});
