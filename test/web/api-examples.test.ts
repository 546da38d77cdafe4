/**
 * docs/api.md opens with a table of contents that reaches every section, and its examples (one
 * curl request and answer per route) are the ones the routes declare, so they cannot drift.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../src/root.ts';
import { withExamples } from '../../scripts/api-examples.ts';
import { STATUS } from '../../src/http/errors.ts';
import { startService } from '../support/app.ts';

const markdown = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');

test("docs/api.md examples are the routes' own (npm run docs:examples writes them)", () => {
  assert.equal(withExamples(markdown), markdown);
});

test('docs/api.md has one curl example and answer for every operation of /openapi.json', async () => {
  const svc = await startService();
  const doc = (await svc.call('/openapi.json')).body;
  await svc.close();
  for (const [path, methods] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of Object.keys(methods)) {
      const heading = `### ${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '')}`;
      const found = markdown.split('\n').some((l) => l.startsWith(heading) && l.length >= heading.length);
      assert.ok(found, `no example for ${method.toUpperCase()} ${path}`);
    }
  }
  assert.match(markdown, /```sh\ncurl -X POST https:\/\/mod97\.example\/v1\/iban\/validate/);
});

test('docs/api.md opens with contents that link every section', () => {
  const contents = markdown.slice(markdown.indexOf('## Contents'), markdown.indexOf('## Conventions'));
  assert.ok(contents.length > 0 && markdown.indexOf('## Contents') < markdown.indexOf('## Conventions'));
  const body = markdown.replace(/```[\s\S]*?```/g, '');
  for (const [, title] of body.matchAll(/^## (.+)$/gm)) {
    if (title === 'Contents') continue;
    assert.ok(contents.includes(`[${title}](#`), `contents lack ${title}`);
  }
});

test('docs/api.md lists every error code under Errors, with the status the one table gives it', () => {
  const errors = markdown.slice(markdown.indexOf('\n## Errors'), markdown.indexOf('**What a 404 `not_found` names.**'));
  const listed = new Map<string, number>();
  for (const [, status, codes] of errors.matchAll(/^\| (\d{3}) \| ([^|]+) \|/gm))
    for (const [, code] of codes.matchAll(/`([a-z0-9_]+)`/g)) listed.set(code, Number(status));
  const unlisted = Object.keys(STATUS).filter((code) => !listed.has(code));
  assert.deepEqual(unlisted, [], 'codes missing from docs/api.md, "Errors"');
  for (const [code, status] of Object.entries(STATUS)) assert.equal(listed.get(code), status, code);
});
