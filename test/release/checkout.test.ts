/**
 * A checkout as a reader of docs/api.md leaves it: the Python client installed into the virtual
 * environment that docs/api.md makes in the checkout. `npm test`'s linter (Biome) walks every
 * folder git does not ignore, and a virtual environment holds links out of the checkout
 * (`bin/python` to the system's Python), on which Biome stopped with an internal error, failing
 * `npm test`. So that folder, wherever a reader makes it, is one git ignores.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');

test('the virtual environment docs/api.md makes in the checkout is ignored by git, at the root or in clients/python', {
  skip: !existsSync(join(ROOT, '.git')) && 'not a git checkout',
}, () => {
  const docs = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  const venv = docs.match(/python3 -m venv (?:--\S+ )*(\S+)/)?.[1];
  assert.equal(venv, '.venv');
  for (const folder of [venv, `clients/python/${venv}`]) {
    // `git check-ignore` exits 0 for an ignored path and 1 (a throw here) for one it would walk.
    execFileSync('git', ['check-ignore', '--quiet', '--no-index', `${folder}/bin/python`], { cwd: ROOT });
  }
});
