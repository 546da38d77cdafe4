/**
 * mod97-client as a user gets it from npm: the tarball of `npm pack` in clients/typescript,
 * installed with `--omit=dev` into an empty folder. It is a few tens of kB, installs nothing
 * else (no better-sqlite3, no Fastify: installing the client never installs the server), runs
 * under plain node against the service, and its declarations type-check a user's code alone.
 *
 * The pack runs no scripts: dist/ is the one scripts/test.sh and `npm run build` made (packing
 * runs `prepack`, a build, which would race the other test files reading it).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startService } from '../support/app.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = join(ROOT, 'clients/typescript');
const NPM_FLAGS = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];
const dir = mkdtempSync(join(tmpdir(), 'mod97-client-release-'));
const app = join(dir, 'app');

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}
let packed: Packed;

before(async () => {
  for (const built of ['dist/index.js', 'dist/index.d.ts'])
    assert.ok(existsSync(join(PACKAGE, built)), `clients/typescript/${built} is missing: run \`npm run build\` first`);
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, ...NPM_FLAGS], {
    cwd: PACKAGE,
  });
  [packed] = JSON.parse(stdout) as Packed[];
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  await run('npm', ['install', '--omit=dev', join(dir, packed.filename), ...NPM_FLAGS], { cwd: app });
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('the tarball holds the built client, its declarations, README and licence: a few tens of kB', () => {
  assert.deepEqual(packed.files.map((f) => f.path).sort(), [
    'LICENSE',
    'README.md',
    'dist/index.d.ts',
    'dist/index.js',
    'package.json',
  ]);
  assert.ok(packed.unpackedSize < 80_000, `${packed.unpackedSize} bytes unpacked`);
  assert.ok(packed.size < 30_000, `${packed.size} bytes packed`);
});

test('installing it installs nothing else: no server, no database driver, no web framework', () => {
  assert.deepEqual(
    readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')),
    ['mod97-client'],
  );
  for (const absent of ['better-sqlite3', 'fastify', 'typebox', 'mod97'])
    assert.equal(existsSync(join(app, 'node_modules', absent)), false, `${absent} was installed`);
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules/mod97-client/package.json'), 'utf8'));
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.engines.node, '>=18');
});

test('plain node imports it by name and calls the service', async () => {
  const svc = await startService();
  const key = await svc.newKey('127.0.41.1');
  writeFileSync(
    join(app, 'use.mjs'),
    `import { Mod97, Mod97Error } from 'mod97-client';
const client = new Mod97({ baseUrl: process.env.URL, apiKey: process.env.KEY });
const answer = await client.validate('GB82 WEST 1234 5698 7654 32');
let refused;
try { await client.bic('XXXXDEFF'); } catch (e) { refused = e instanceof Mod97Error && [e.status, e.code]; }
process.stdout.write(JSON.stringify({ valid: answer.valid, used: answer.quota.used, refused }));`,
  );
  const { stdout } = await run(process.execPath, ['use.mjs'], {
    cwd: app,
    env: { PATH: process.env.PATH, URL: svc.url, KEY: key },
  });
  assert.deepEqual(JSON.parse(stdout), { valid: true, used: 1, refused: [404, 'bic_not_found'] });
});

test("its declarations stand alone: a user's TypeScript checks against them with nothing else installed", async () => {
  assert.doesNotMatch(readFileSync(join(app, 'node_modules/mod97-client/dist/index.d.ts'), 'utf8'), /\bimport\b/);
  writeFileSync(
    join(app, 'use.ts'),
    `import { Mod97, Mod97Error, type ValidateResult, type Mod97ErrorCode } from 'mod97-client';
const client = new Mod97({ apiKey: 'x' });
const answer: ValidateResult = await client.validate('x');
const valid: boolean = answer.valid;
const bic: string | null | undefined = answer.bank?.bic;
const code: Mod97ErrorCode = 'quota_exhausted';
// @ts-expect-error: not a property of the answer
answer.nonsense;
// Every option filled from a variable that may be unset, as from the environment.
const env: Record<string, string | undefined> = {};
const timeout = env.MOD97_TIMEOUT_MS;
new Mod97({
  baseUrl: env.MOD97_URL,
  apiKey: env.MOD97_API_KEY,
  fetch: undefined,
  timeoutMs: timeout === undefined ? undefined : Number(timeout),
  retries: undefined,
});
export { valid, bic, code, Mod97Error };
`,
  );
  // The README's example as a user pastes it: its options filled from process.env, string | undefined.
  const example = /```js\n([\s\S]*?)```/.exec(readFileSync(join(app, 'node_modules/mod97-client/README.md'), 'utf8'));
  assert.match(example?.[1] ?? '', /apiKey: process\.env\.MOD97_API_KEY/);
  writeFileSync(
    join(app, 'readme.ts'),
    `declare const process: { env: Record<string, string | undefined> };\n${example?.[1]}`,
  );
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  // No @types: the user's project has none; fetch and its types come from the DOM library. The
  // strictest options a user may set: an optional member then takes undefined only where declared.
  const flags = [
    '--noEmit',
    '--strict',
    '--exactOptionalPropertyTypes',
    '--module',
    'nodenext',
    '--target',
    'es2022',
    '--lib',
    'es2022,dom',
    '--typeRoots',
    './none',
  ];
  const checked = await run(process.execPath, [tsc, ...flags, 'use.ts', 'readme.ts'], { cwd: app }).catch((e) => e);
  assert.equal(checked.stdout ?? '', '', checked.stdout);
});
