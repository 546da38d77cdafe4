/**
 * Download and parse in a worker thread with a heap limit of its own: a hostile or broken file
 * (a ZIP bomb, millions of rows) ends that worker with an error, and the service goes on
 * answering on its own thread. One worker serves a whole update; a worker that died is
 * replaced for the next file. `mod97 data import|update` parse in it too, so that the command
 * keeps to the same bound as the service's daily update (docs/reliability.md, "Hostile data files").
 */
import type { ParsedDataset } from './types.ts';
import type { FetchParsed } from './download.ts';
import type { ImportJob, UpdateJob, WorkerJob } from './update-worker.ts';
import type { UpdateReport } from './download.ts';
import { codeOf } from '../thrown.ts';
import { ImportError } from './importers/types.ts';
import { startWorker, workerClient } from '../worker-thread.ts';

/** The worker's JavaScript heap; the file's bytes come on top, bounded per kind (at most 512 MiB). */
export const WORKER_HEAP_MB = 768;

type Reply = { id: number; result?: unknown; error?: string; refused?: boolean };
/** A job as sent, before the worker's id is put on it. */
type Job<J> = J extends WorkerJob ? Omit<J, 'id'> : never;

/** The worker's module, and its bundle beside dist/server.js and dist/cli.js. */
const ENTRY = {
  source: new URL('./update-worker.ts', import.meta.url),
  bundle: new URL('./data-update-worker.js', import.meta.url),
};

export interface WorkerFetch {
  fetchParsed: FetchParsed;
  /** `mod97 data import`: the file read, parsed and stored in the worker; the line to print. */
  importFile(job: Job<ImportJob>): Promise<string>;
  /** `mod97 data update`: every kind downloaded, parsed and stored in the worker. */
  update(job: Job<UpdateJob>): Promise<UpdateReport>;
  close(): Promise<void>;
}

export function workerFetch(): WorkerFetch {
  const worker = workerClient<Job<WorkerJob>, unknown, Reply>(
    () =>
      startWorker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 } }),
    {
      answer(reply) {
        if (reply.error === undefined) return reply.result;
        throw reply.refused ? new ImportError(reply.error) : new Error(reply.error);
      },
      failed: (err) =>
        codeOf(err) === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `the file needed more than the import's ${WORKER_HEAP_MB} MiB of memory; the import stopped and nothing changed`
          : `the import worker failed (${err.message}); nothing changed`,
      stopped: (code) => `the import worker stopped (exit ${code}); nothing changed`,
    },
  );
  const send = <T>(job: Job<WorkerJob>): Promise<T> => worker.send(job) as Promise<T>;
  return {
    fetchParsed: (kind, url, now, asOf, maxBytes) =>
      send<ParsedDataset<unknown>>({ type: 'parse', kind, url, now, asOf, maxBytes }),
    importFile: (job) => send<string>(job),
    update: (job) => send<UpdateReport>(job),
    close: () => worker.close(),
  };
}
