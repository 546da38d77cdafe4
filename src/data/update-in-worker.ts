/**
 * Download and parse in a worker thread with a heap limit of its own: a hostile or broken file
 * (a ZIP bomb, millions of rows) ends that worker with an error, and the service goes on
 * answering on its own thread. One worker serves a whole update; a worker that died is
 * replaced for the next file. `mod97 data import|update` parse in it too, so that the command
 * keeps to the same bound as the service's daily update (docs/reliability.md, "Hostile data files").
 */
import type { Worker } from 'node:worker_threads';
import type { ParsedDataset } from './types.ts';
import type { FetchParsed } from './download.ts';
import type { ImportJob, UpdateJob, WorkerJob } from './update-worker.ts';
import type { UpdateReport } from './download.ts';
import { codeOf } from '../thrown.ts';
import { ImportError } from './importers/types.ts';
import { startWorker } from '../worker-thread.ts';

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
  let worker: Worker | null = null;
  let next = 0;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (e: Error) => void }>();
  const failAll = (message: string) => {
    for (const p of pending.values()) p.reject(new Error(message));
    pending.clear();
  };
  const ensure = (): Worker => {
    if (worker) return worker;
    const w = startWorker(ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    });
    w.unref();
    w.on('message', (reply: Reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (pending.size === 0) w.unref();
      if (reply.error === undefined) p.resolve(reply.result);
      else if (reply.refused) p.reject(new ImportError(reply.error ?? 'the file was refused'));
      else p.reject(new Error(reply.error ?? 'the import worker answered nothing'));
    });
    w.on('error', (err) => {
      const oom = codeOf(err) === 'ERR_WORKER_OUT_OF_MEMORY';
      if (worker === w) worker = null;
      failAll(
        oom
          ? `the file needed more than the import's ${WORKER_HEAP_MB} MiB of memory; the import stopped and nothing changed`
          : `the import worker failed (${err.message}); nothing changed`,
      );
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(`the import worker stopped (exit ${code}); nothing changed`);
    });
    worker = w;
    return w;
  };
  const send = <T>(job: Job<WorkerJob>): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve: (result) => resolve(result as T), reject });
      const w = ensure();
      // held while a job is under way: a worker ended by running out of memory is told of
      // (its 'error' event), not left as a job no event will ever settle
      w.ref();
      w.postMessage({ ...job, id });
    });
  return {
    fetchParsed: (kind, url, now, asOf, maxBytes) =>
      send<ParsedDataset<unknown>>({ type: 'parse', kind, url, now, asOf, maxBytes }),
    importFile: (job) => send<string>(job),
    update: (job) => send<UpdateReport>(job),
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
