/**
 * A worker thread running one of the service's modules: from source (tests, tsx), the module
 * itself, the worker registering the TypeScript loader before it loads it; from the bundles, the
 * module's own bundle in dist/ beside server.js and cli.js (scripts/build.mjs names each one).
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `source`: the module, `new URL('./x.ts', import.meta.url)`; `bundle`: its bundle, `new URL('./x.js', import.meta.url)`. */
export function startWorker(entry: { source: URL; bundle: URL }, options: WorkerOptions = {}): Worker {
  if (import.meta.url.endsWith('.ts')) {
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.source.href)}); })`;
    return new Worker(boot, { ...options, eval: true });
  }
  return new Worker(entry.bundle, options);
}

/** A worker thread that answers jobs by id (workerClient). */
export interface WorkerClient<Job, Result> {
  send(job: Job): Promise<Result>;
  /** Stops the worker; the next job starts another. */
  close(): Promise<void>;
}

/**
 * Jobs sent to a worker thread started by the first one and kept, each answered by a reply with
 * its id: `answer` turns the reply into the result, or throws what the job is rejected with. The
 * worker is held while jobs are under way, so that a job awaited is never cut short and a worker
 * that ends (out of memory: its 'error' event) is told of, not left as a job no event settles;
 * idle, it does not keep the process alive. One that stopped fails its jobs with `failed` or
 * `stopped` and is replaced for the next job.
 */
export function workerClient<Job extends object, Result, Reply extends { id: number }>(
  start: () => Worker,
  handlers: {
    answer(reply: Reply): Result;
    failed(err: Error): string;
    stopped(code: number): string;
  },
): WorkerClient<Job, Result> {
  let worker: Worker | null = null;
  let next = 0;
  const pending = new Map<number, { resolve: (result: Result) => void; reject: (e: unknown) => void }>();
  const failAll = (message: string) => {
    for (const p of pending.values()) p.reject(new Error(message));
    pending.clear();
  };
  const ensure = (): Worker => {
    if (worker) return worker;
    const w = start();
    w.unref();
    w.on('message', (reply: Reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (pending.size === 0) w.unref();
      try {
        p.resolve(handlers.answer(reply));
      } catch (e) {
        p.reject(e);
      }
    });
    w.on('error', (err) => {
      if (worker === w) worker = null;
      failAll(handlers.failed(err));
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(handlers.stopped(code));
    });
    worker = w;
    return w;
  };
  return {
    send: (job) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve, reject });
        const w = ensure();
        w.ref();
        w.postMessage({ ...job, id });
      }),
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
