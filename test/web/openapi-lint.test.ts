/**
 * The OpenAPI document the service serves (and /docs renders) is OpenAPI 3.1 and passes
 * Redocly's `recommended-strict` rules (the `recommended` ones with every warning an error) with
 * no error: operationIds, a licence, examples that match their schemas, defined required fields.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startService } from '../support/app.ts';

const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

test('/openapi.json is OpenAPI 3.1 and lint-clean under Redocly recommended-strict', async () => {
  // A public URL as an operator sets it: the strict rules refuse a server on localhost.
  const svc = await startService({ env: { MOD97_PUBLIC_URL: 'https://iban.mod97.example' } });
  const doc = (await svc.call('/openapi.json')).body;
  assert.equal(doc.openapi, '3.1.0');
  const dir = mkdtempSync(join(tmpdir(), 'mod97-openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  // An empty config file: no network look-ups, no telemetry, the `recommended-strict` ruleset as it ships.
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended-strict\n');
  const run = await promisify(execFile)(process.execPath, [redocly, 'lint', file, '--format=json'], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  const errors = report.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  assert.deepEqual(errors, []);
});
