/**
 * Builds what runs without tsx: the server and the `mod97` command as one bundled file each
 * (dist/server.js, what `npm start` runs; dist/cli.js, what bin/mod97.js runs; beside them
 * dist/data-update-worker.js, the daily data update's worker thread; what they import
 * dynamically in dist/chunk-*.js) and the
 * `mod97/client` package export (dist/client: the client package clients/typescript as built by
 * its own script, with declarations that stand alone).
 *
 * Flags:
 * - `--bundles` builds only the bundles.
 * - `--if-stale` builds only when a source (src/, the client's, package.json, this script) is newer than the
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
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const flags = new Set(process.argv.slice(2));
const bundles = ['dist/server.js', 'dist/cli.js', 'dist/data-update-worker.js'].map((f) => join(root, f));

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
  const client = join(root, 'clients/typescript/src'); // the command line's client
  if (existsSync(client)) visit(client);
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

// A full build starts from an empty dist/, so that the release ships no output of a removed source.
// `--bundles` leaves the chunks of earlier builds (named by their content) in place: a server
// still running from an earlier build imports its own chunks only when a rail is first used.
if (!flags.has('--bundles')) rmSync(join(root, 'dist'), { recursive: true, force: true });

await esbuild.build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/server.ts', out: 'server' },
    { in: 'src/cli/main.ts', out: 'cli' },
    // the daily data update's worker thread (src/data/update-in-worker.ts loads it beside server.js)
    { in: 'src/data/update-worker.ts', out: 'data-update-worker' },
  ],
  outdir: 'dist',
  bundle: true,
  // What is imported dynamically (the payment SDKs, nodemailer, the MCP SDK, the PostgreSQL
  // driver) goes into chunks of its own, read only when imported: a start with those rails off
  // neither parses nor holds them. Chunks sit beside the bundles, one folder below the package
  // root as src/root.ts expects of any module.
  splitting: true,
  chunkNames: 'chunk-[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A native addon, and a data package that src/data/bundled.ts reads from its own folder.
  external: ['better-sqlite3', 'bankdata-germany'],
  // CommonJS modules inside an ES module bundle call require(): give them Node's own.
  banner: {
    js: "import { createRequire as mod97CreateRequire } from 'node:module'; const require = mod97CreateRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
});

if (!flags.has('--bundles')) {
  // The client package (clients/typescript, published as mod97-client) builds itself; the root
  // package ships the same two files as its `mod97/client` export.
  execFileSync(process.execPath, ['clients/typescript/scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  mkdirSync(join(root, 'dist/client'), { recursive: true });
  for (const file of ['index.js', 'index.d.ts'])
    copyFileSync(join(root, 'clients/typescript/dist', file), join(root, 'dist/client', file));
}
