/**
 * Builds what runs without tsx: the server and the `mod97` command as one bundled file each
 * (dist/server.js, what `npm start` runs; dist/cli.js, what bin/mod97.js runs; beside them
 * dist/data-update-worker.js, the daily data update's worker thread, and dist/qr-read-worker.js,
 * the worker thread that decodes payment QR images; what they import
 * dynamically in dist/chunk-*.js; the routes' schemas compiled, dist/compiled-schemas.js; the
 * bundled data indexed, dist/data/bundled/) and the
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
import { execFile, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { requireSupportedNode } from '../bin/node-version.js';

requireSupportedNode('mod97');
const root = fileURLToPath(new URL('../', import.meta.url));
const flags = new Set(process.argv.slice(2));
const bundles = [
  'dist/server.js',
  'dist/cli.js',
  'dist/data-update-worker.js',
  'dist/qr-read-worker.js',
  'dist/compiled-schemas.js',
  'dist/schema-compilers.cjs',
  'dist/data/bundled/with-german-delta/bundled.json',
].map((f) => join(root, f));

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
  const scripts = ['scripts/build.mjs', 'scripts/compile-schemas.ts', 'scripts/compact-data.ts'];
  for (const file of ['package.json', 'package-lock.json', ...scripts]) {
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

/** What every bundle for node shares. */
const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A native addon, and a data package that src/data/bundled.ts reads from its own folder.
  external: ['better-sqlite3', 'bankdata-germany'],
  // CommonJS modules inside an ES module bundle call require(): give them Node's own.
  banner: {
    js: "import { createRequire as mod97CreateRequire } from 'node:module'; const require = mod97CreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

/**
 * Fastify requires its default schema compilers (Ajv, fast-json-stringify) only for an app built
 * without compilers of its own. mod97 always gives it its own (src/app.ts: the build's compiled
 * schemas, or src/http/schema-compilers.ts, imported only then), so the bundles leave Fastify's
 * out: about 640 kB that every start parsed and never ran. Should an app ever lack compilers,
 * Fastify's require says so.
 */
const withoutFastifyDefaultCompilers = {
  name: 'without-fastify-default-compilers',
  setup(build) {
    const fastifyDir = `${sep}node_modules${sep}fastify${sep}`;
    build.onResolve({ filter: /^@fastify\/(ajv-compiler|fast-json-stringify-compiler)$/ }, (args) =>
      args.importer.includes(fastifyDir) ? { path: args.path, namespace: 'left-out' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is left out of mod97's bundles: give Fastify its compilers (src/app.ts)`)});`,
      loader: 'js',
    }));
  },
};

await esbuild.build({
  ...NODE_BUNDLE,
  absWorkingDir: root,
  plugins: [withoutFastifyDefaultCompilers],
  entryPoints: [
    { in: 'src/server.ts', out: 'server' },
    { in: 'src/cli/main.ts', out: 'cli' },
    // the daily data update's worker thread (src/data/update-in-worker.ts loads it beside server.js)
    { in: 'src/data/update-worker.ts', out: 'data-update-worker' },
    // the payment QR image reader's worker thread (src/transfer/read-in-worker.ts loads it beside server.js)
    { in: 'src/transfer/read-worker.ts', out: 'qr-read-worker' },
  ],
  outdir: 'dist',
  // What is imported dynamically (the payment SDKs, nodemailer, the MCP SDK, the PostgreSQL
  // driver) goes into chunks of its own, read only when imported: a start with those rails off
  // neither parses nor holds them. Chunks sit beside the bundles, one folder below the package
  // root as src/root.ts expects of any module.
  splitting: true,
  chunkNames: 'chunk-[name]-[hash]',
  sourcemap: 'linked',
  legalComments: 'linked',
});

writeNotices();
await runBuildSteps();

if (!flags.has('--bundles')) {
  // The client package (clients/typescript, published as mod97-client) builds itself; the root
  // package ships the same two files as its `mod97/client` export.
  execFileSync(process.execPath, ['clients/typescript/scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  mkdirSync(join(root, 'dist/client'), { recursive: true });
  for (const file of ['index.js', 'index.d.ts'])
    copyFileSync(join(root, 'clients/typescript/dist', file), join(root, 'dist/client', file));
}

/**
 * esbuild writes the third-party notices of each bundle and chunk beside it (`*.LEGAL.txt`, the
 * chunks' names changing with their content): dist/LEGAL.txt gathers them all, each notice once,
 * under one name that docs/operations.md can give.
 */
function writeNotices() {
  const dist = join(root, 'dist');
  const seen = new Set();
  const blocks = [];
  for (const file of readdirSync(dist)
    .filter((f) => f.endsWith('.LEGAL.txt'))
    .sort()) {
    const text = readFileSync(join(dist, file), 'utf8').replace(/^Bundled license information:\n+/, '');
    for (const block of text.split(/\n\n(?=\S)/).map((b) => b.trim())) {
      if (!block || seen.has(block)) continue;
      seen.add(block);
      blocks.push(block);
    }
  }
  writeFileSync(
    join(dist, 'LEGAL.txt'),
    `Third-party notices of the code bundled in dist/ (gathered from its *.LEGAL.txt files):\n\n${blocks.join('\n\n')}\n`,
  );
}

/**
 * What is computed once here rather than at every start, by scripts of their own bundled beside
 * the server for the run (the sources' root is found one folder up, as at run time):
 * - the routes' schemas, compiled (src/http/compiled-schemas.ts): scripts/compile-schemas.ts
 *   builds the app under each setting of the rails and writes the standalone code, which is
 *   bundled with the few modules it requires into dist/compiled-schemas.js. Beside it, the
 *   compilers for a schema it lacks, as a CommonJS bundle that the server can require at the
 *   moment it needs them (dist/schema-compilers.cjs);
 * - the bundled reference data, indexed (src/data/compact.ts): scripts/compact-data.ts writes
 *   dist/data/bundled/.
 */
async function runBuildSteps() {
  const drivers = ['compile-schemas', 'compact-data'];
  const driver = (name) => join(root, `dist/${name}.tmp.mjs`);
  const code = join(root, 'dist/compiled-schemas.tmp.js');
  try {
    await esbuild.build({
      ...NODE_BUNDLE,
      absWorkingDir: root,
      entryPoints: drivers.map((name) => ({ in: `scripts/${name}.ts`, out: `${name}.tmp` })),
      outdir: 'dist',
      outExtension: { '.js': '.mjs' },
      external: [...NODE_BUNDLE.external, 'esbuild'],
    });
    rmSync(join(root, 'dist/data/bundled'), { recursive: true, force: true });
    const run = promisify(execFile);
    await Promise.all([
      run(process.execPath, [driver('compile-schemas'), code], { cwd: root }),
      run(process.execPath, [driver('compact-data'), join(root, 'dist/data/bundled')], { cwd: root }),
    ]);
    await esbuild.build({
      ...NODE_BUNDLE,
      absWorkingDir: root,
      entryPoints: [code],
      outfile: join(root, 'dist/compiled-schemas.js'),
      // The generated code is mostly indentation: fewer bytes for V8 to read at every start.
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'none',
    });
    await esbuild.build({
      ...NODE_BUNDLE,
      absWorkingDir: root,
      entryPoints: ['src/http/schema-compilers.ts'],
      outfile: join(root, 'dist/schema-compilers.cjs'),
      format: 'cjs',
      banner: {},
      legalComments: 'none',
    });
  } finally {
    for (const name of drivers) rmSync(driver(name), { force: true });
    rmSync(code, { force: true });
  }
}
