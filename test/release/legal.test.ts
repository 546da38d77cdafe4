/**
 * The third-party notices of the bundles are where docs/operations.md ("Licences of the bundled
 * data") says: every file it names in dist/ exists, and dist/LEGAL.txt holds every notice that
 * esbuild wrote beside a bundle or chunk (run after `node scripts/build.mjs`).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The notices of one esbuild `*.LEGAL.txt`: its blocks after the heading. */
const notices = (text: string): string[] =>
  text
    .replace(/^Bundled license information:\n+/, '')
    .split(/\n\n(?=\S)/)
    .map((block) => block.trim())
    .filter(Boolean);

test('the files docs/operations.md names for the notices exist, and dist/LEGAL.txt holds every notice', () => {
  const page = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8').replace(/\s+/g, ' ');
  const sentence = /The third-party code inside the bundles .*?\.\s(?=[A-Z])/.exec(page)?.[0] ?? '';
  const named = [...sentence.matchAll(/`(dist\/[^`*]+)`/g)].map((m) => m[1]);
  assert.ok(named.length > 0, sentence);
  for (const file of named)
    assert.ok(existsSync(join(ROOT, file)), `${file} (named by docs/operations.md) is not built`);
  const all = readFileSync(join(ROOT, 'dist/LEGAL.txt'), 'utf8');
  const legal = readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.LEGAL.txt'));
  assert.ok(legal.length > 1);
  for (const file of legal)
    for (const notice of notices(readFileSync(join(ROOT, 'dist', file), 'utf8')))
      assert.ok(all.includes(notice), `dist/LEGAL.txt lacks a notice of dist/${file}: ${notice.slice(0, 80)}`);
});
