/**
 * The check every test's calls go through (test/support/openapi-check.ts) refuses what the
 * served document does not declare, so a passing suite means every answer it saw matched.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';
import type { Reply } from '../support/http.ts';
import { responseChecker } from '../support/openapi-check.ts';

const json = (status: number, body: unknown): Reply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body,
  text: JSON.stringify(body),
});

test('an answer unlike /openapi.json is refused: undeclared status, content type or body', async () => {
  const svc = await startService();
  const checker = await responseChecker(() => svc.call('/openapi.json'));
  const usage = { used: 0, limit: 25, remaining: 25, basis: 'daily', tier: 'trial', day: '2026-11-21' };
  checker.check('GET', '/v1/keys/usage', json(200, usage));
  checker.check('GET', '/v1/keys/usage', json(503, { error: 'storage_unavailable', message: 'Try again.' }));
  assert.throws(
    () => checker.check('GET', '/v1/keys/usage', json(200, { ...usage, used: 'none' })),
    /unlike its schema/,
  );
  assert.throws(() => checker.check('GET', '/v1/keys/usage', json(418, { error: 'x', message: 'y' })), /not declare/);
  assert.throws(() => checker.check('GET', '/v1/keys/usage', json(401, { error: 'x' })), /unlike its schema/);
  const html = { ...json(200, usage), headers: { 'content-type': 'text/html' } };
  assert.throws(() => checker.check('GET', '/v1/keys/usage', html), /as text\/html/);
  // A path the document does not describe (a page) is not held to it.
  checker.check('GET', '/docs', html);
});
