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
