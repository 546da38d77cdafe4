/**
 * `mod97/client` (the client package, clients/typescript, re-exported) as a user gets it: the package's build step (`npm run build`, which `prepare`
 * runs on npm install, and scripts/test.sh before the tests) writes dist/, and plain `node` (no
 * TypeScript loader) imports it by name. The test does not build again itself: a full build
 * empties dist/, which other test files are running at the same time.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { before, test } from 'node:test';
import { startService } from '../support/app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

before(() => {
  for (const built of ['dist/client/index.js', 'dist/client/index.d.ts'])
    assert.ok(existsSync(join(ROOT, built)), `${built} is missing: run \`npm run build\` first`);
});

test('plain node imports mod97/client and calls the service with it', async () => {
  const svc = await startService();
  const key = await svc.newKey('127.0.8.1');
  const script = `
    import { Mod97, Mod97Error } from 'mod97/client';
    const client = new Mod97({ baseUrl: process.env.URL, apiKey: process.env.KEY });
    const r = await client.validate('DE89 3704 0044 0532 0130 00');
    let refused;
    try { await client.bic('XXXXDEFF'); } catch (e) { refused = e instanceof Mod97Error && [e.status, e.code]; }
    console.log(JSON.stringify({ valid: r.valid, quota: r.quota, keys: Object.keys(r).includes('quota'), refused }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, URL: svc.url, KEY: key },
  });
  assert.deepEqual(JSON.parse(stdout), {
    valid: true,
    quota: { used: 1, limit: 25, remaining: 24, month: '2026-11' },
    keys: false,
    refused: [404, 'bic_not_found'],
  });
});

test('the built client imports nothing: it runs wherever fetch does (browsers included)', () => {
  const js = readFileSync(`${ROOT}dist/client/index.js`, 'utf8');
  // mod97/client is the client package (clients/typescript, mod97-client) as built, byte for byte.
  for (const file of ['index.js', 'index.d.ts'])
    assert.equal(
      readFileSync(`${ROOT}dist/client/${file}`, 'utf8'),
      readFileSync(`${ROOT}clients/typescript/dist/${file}`, 'utf8'),
      file,
    );
  assert.doesNotMatch(readFileSync(`${ROOT}dist/client/index.d.ts`, 'utf8'), /\bimport\b/);
  assert.doesNotMatch(js, /^\s*import\s|^\s*export .* from |\brequire\(|\bimport\(/m);
  assert.match(readFileSync(`${ROOT}dist/client/index.d.ts`, 'utf8'), /export declare class Mod97 /);
});
