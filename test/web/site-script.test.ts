/**
 * The pages' script keeps no second copy of the server's rules: the key's shape comes from the
 * page (rendered from src/keys/secret.ts), refusals are the server's own `message` and
 * `attempts_left`, and every error code has the sentence /docs shows for it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MEANING, STATUS } from '../../src/http/errors.ts';
import { KEY_PATTERN } from '../../src/keys/secret.ts';
import { ROOT } from '../../src/root.ts';
import { startService } from '../support/app.ts';

const script = readFileSync(join(ROOT, 'src/web/assets/site.js'), 'utf8');

test('the script holds no key shape, attempt count, code lifetime or reworded refusal of its own', () => {
  assert.doesNotMatch(script, /ifk_\[/, 'a key pattern');
  assert.doesNotMatch(script, /attemptsLeft\s*=\s*\d/, 'a count of attempts');
  assert.doesNotMatch(script, /\b15 minutes\b/, 'the code lifetime');
  assert.doesNotMatch(script, /disposable_email:|undeliverable_email:|unused_key:/, 'a table of reworded refusals');
  assert.match(script, /attempts_left/);
});

test('every page carries the key shape the server checks', async () => {
  const svc = await startService();
  const page = await svc.call('/usage', { headers: { accept: 'text/html' } });
  await svc.close();
  const pattern = /data-key-pattern="([^"]+)"/.exec(page.text)?.[1];
  assert.equal(pattern, KEY_PATTERN.source);
  assert.match(page.text, /data-key-shape="[^"]*64 lower-case hexadecimal/);
});

test('every error code clients can see has a meaning for /docs', () => {
  const missing = Object.keys(STATUS).filter(
    (code) => code !== 'invalid_config' && !MEANING[code as keyof typeof STATUS],
  );
  assert.deepEqual(missing, []);
});
