// One of `npm test`'s worker processes (scripts/build-tests.mjs writes the queue and says why):
// takes the next test file from the queue until none is left, and runs it in this process.
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const bundled = join(import.meta.dirname, '..', 'test-artifacts', 'bundled');
const queue = JSON.parse(readFileSync(join(bundled, 'queue.json'), 'utf8'));

/** Takes file `i` unless another worker has: creating its marker succeeds for one worker only. */
function claim(i) {
  try {
    closeSync(openSync(join(bundled, 'claims', String(i)), 'wx'));
    return true;
  } catch {
    return false;
  }
}

for (const [i, { name, url }] of queue.entries()) {
  if (!claim(i)) continue;
  // A test named after the file holds the process while the file loads: the file's tests queue
  // behind it, and it starts only once every test of the file before has run. Root-level `after`
  // hooks would otherwise run whenever no test is running, as between a file's top-level awaits.
  let loaded;
  const loading = new Promise((resolve) => {
    loaded = resolve;
  });
  await new Promise((started) =>
    test(name, () => {
      started();
      return loading;
    }),
  );
  try {
    await import(url);
  } finally {
    loaded();
  }
}
