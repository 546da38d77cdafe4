/**
 * Start-up cost of the data plane, measured in a fresh process (not a timed test):
 *   node --import tsx test/data/measure-startup.ts [sqlite:PATH]
 * Prints the time to import the module and load every bundled source (plus the datasets
 * imported into the given database), and the resident memory afterwards.
 */
const started = performance.now();
const { openSqliteStore } = await import('../../src/store/sqlite/index.ts');
const { loadDataPlane } = await import('../../src/data/index.ts');
const store = openSqliteStore(process.argv[2] ?? 'sqlite::memory:');
const loadStarted = performance.now();
const plane = await loadDataPlane(store);
const done = performance.now();
const mb = (n: number) => Math.round(n / 1e6);
console.log(JSON.stringify({
  load_ms: Math.round(done - loadStarted),
  import_and_load_ms: Math.round(done - started),
  rss_mb: mb(process.memoryUsage().rss),
  heap_used_mb: mb(process.memoryUsage().heapUsed),
  sources: plane.provenance().length,
  data_version: plane.dataVersion(),
}));
await store.close();
