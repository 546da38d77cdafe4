/**
 * Bundles every test file (test/**\/*.test.ts) into test-artifacts/bundled/, with shared chunks
 * and most packages (see `external` below), for `npm test` to run with plain node in a pool of
 * worker processes (see the queue below).
 *
 * Why: run through tsx, each of the ~125 test processes sent every one of its ~1,000 modules
 * (typebox alone is 700) through the loader hooks' thread, about a second of CPU per process
 * before its first test (docs/benchmarks.md, "The test suite"). A single test file still runs
 * as it always did: `node --import tsx --test test/x.test.ts`.
 *
 * Each source file keeps its own `import.meta.url`, `dirname` and `filename` (replaced by the
 * file's original location), so fixtures, the repository root and the data-update worker resolve
 * exactly as under tsx.
 *
 * Usage: node scripts/build-tests.mjs WORKERS   (prints the worker files, one per line)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** How many worker processes the tests run in: npm test passes TEST_CONCURRENCY. */
const workers = Number(process.argv[2]);
if (!Number.isInteger(workers) || workers < 1) throw new Error('usage: node scripts/build-tests.mjs WORKERS');

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = join(root, 'test-artifacts/bundled');

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.test.ts')) yield path;
  }
}

/** Pins `import.meta.*` of every project file to where the file lives in the repository. */
const originalLocation = {
  name: 'original-location',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mjs|js)$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const contents = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

// The client package's own tests (clients/typescript/test) run with the service's.
const entryPoints = [...testFiles(join(root, 'test')), ...testFiles(join(root, 'clients/typescript/test'))].sort();
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints,
  outdir,
  outbase: root,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Packages are bundled too, as in dist/server.js: one file read instead of hundreds of
  // modules resolved one by one. Kept out: native addons and binaries, packages that read their
  // own folders at run time, and the tools the tests drive.
  external: ['better-sqlite3', 'bankdata-germany', 'playwright-core', 'esbuild', 'typescript', 'tsx', 'axe-core'],
  // CommonJS modules inside an ES module bundle call require(): give them Node's own.
  banner: {
    js: "import { createRequire as mod97CreateRequire } from 'node:module'; const require = mod97CreateRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  plugins: [originalLocation],
  logLevel: 'warning',
});
// A pool of worker processes, each taking the next test file from one queue as soon as it is
// done with its last, so that a process loads the modules, the reference data and the schema
// compilers once for several files (a file's own process spent about as long on that as on its
// tests), and no core is left idle while another works through a fixed list.
// The queue: files that mostly wait (on the browser, child processes such as the Python client's
// pytest and mypy, a restarted PostgreSQL) first, so that their waits overlap the others' work;
// then the largest, so that none is left running alone at the end. Each worker is a file of its
// own (node runs one process per file) that runs scripts/test-worker.mjs.
const bundled = (file) => join(outdir, relative(root, file)).replace(/\.ts$/, '.mjs');
const waits = /\/test\/(web|multiprocess|release|cli)\/|\/test\/clients\/python|\/clients\/typescript\/test\/browser/;
const queue = entryPoints
  .map((file) => ({ file, waits: waits.test(file), size: readFileSync(file).length }))
  .sort((a, b) => Number(b.waits) - Number(a.waits) || b.size - a.size)
  .map(({ file }) => ({ name: relative(root, file), url: pathToFileURL(bundled(file)).href }));
mkdirSync(join(outdir, 'claims'), { recursive: true });
writeFileSync(join(outdir, 'queue.json'), JSON.stringify(queue));
const worker = pathToFileURL(join(root, 'scripts/test-worker.mjs')).href;
for (let w = 1; w <= workers; w++) {
  const entry = join(outdir, `worker-${w}.test.mjs`);
  writeFileSync(entry, `import ${JSON.stringify(worker)};\n`);
  console.log(entry);
}
