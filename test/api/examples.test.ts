/**
 * The examples the data routes declare (shown by /openapi.json, /docs and docs/api.md) are what
 * the service answers to them, field for field: an example that drifted from the bundled data
 * would teach a developer a wrong answer. Only the data's version, which changes with every
 * update of the bundled data, and the attribution's link, which names the server, are set aside.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as examples from '../../src/api/examples.ts';
import type { RouteExample } from '../../src/api/route-example.ts';
import { startService } from '../support/app.ts';

const DATA_EXAMPLES: [string, RouteExample][] = Object.entries({
  validate: examples.validate,
  batch: examples.batch,
  fromAccount: examples.fromAccount,
  extract: examples.extract,
  bic: examples.bic,
  compliance: examples.compliance,
  clearing: examples.clearing,
});

/** The answer without what names this data release or this server. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => name !== 'data_version')
      .map(([name, member]) => [
        name,
        name === 'attribution' ? { ...(member as object), url: null } : comparable(member),
      ]),
  );
}

test('each data route answers its declared example as declared', async () => {
  const svc = await startService();
  const key = await svc.newKey('127.0.41.1');
  for (const [name, ex] of DATA_EXAMPLES) {
    const r = await svc.call(ex.path, { method: ex.method, key, ...(ex.body !== undefined && { json: ex.body }) });
    assert.equal(r.status, ex.status, `${name}: ${r.text}`);
    assert.deepEqual(comparable(r.body), comparable(ex.answer), name);
  }
  await svc.close();
});
