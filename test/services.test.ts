/**
 * The service's own log lines (src/services.ts): each carries one `component` (one key, not two
 * of a child logger made from another child), and the warning for an expected store outage has
 * no stack (docs/security.md, "What is logged").
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { storageUnavailable } from '../src/store/unavailable.ts';
import { startService } from './support/app.ts';

const IBAN = 'DE89370400440532013000';

const lineWith = (logs: string[], text: string): string => {
  const line = logs.flatMap((l) => l.split('\n')).find((l) => l.includes(text));
  assert.ok(line, `no log line with "${text}"`);
  return line;
};

test('the daily-usage and network warnings carry one component each, and a store outage no stack', async () => {
  const svc = await startService();
  after(() => svc.close());
  const key = await svc.newKey();
  svc.services.store.addDailyUsage = async () => {
    throw storageUnavailable(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), 'write');
  };
  assert.equal((await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })).status, 200);
  await svc.call('/v1/keys/usage/daily', { key });
  const daily = lineWith(svc.logs, 'daily usage not written');
  assert.equal(daily.match(/"component":/g)?.length, 1, daily);
  assert.equal(JSON.parse(daily).component, 'daily');
  assert.equal(JSON.parse(daily).level, 40);
  assert.doesNotMatch(daily, /"stack"/);
  assert.equal(JSON.parse(daily).error, 'storage_unavailable');

  await svc.call('/healthz', { headers: { 'x-forwarded-for': '203.0.113.9' } });
  const network = lineWith(svc.logs, 'X-Forwarded-For arrives');
  assert.equal(network.match(/"component":/g)?.length, 1, network);
  assert.equal(JSON.parse(network).component, 'network');
});
