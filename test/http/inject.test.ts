/**
 * The pipeline answers the same through `app.inject` (how MCP tool calls reach the routes):
 * key checks, credentials, quota with its headers, and the refund of a refused body.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';

const IBAN = 'DE89370400440532013000';

test('a call run through app.inject takes the one pipeline, in order', async () => {
  const svc = await startService();
  const key = await svc.newKey();
  const inject = (opts: { url?: string; payload?: object; headers?: Record<string, string> }) =>
    svc.app.inject({
      method: 'POST',
      url: opts.url ?? '/v1/iban/validate',
      payload: opts.payload,
      headers: opts.headers,
    });

  const inUrl = await inject({ url: `/v1/iban/validate?key=${key}`, payload: { iban: IBAN } });
  assert.deepEqual([inUrl.statusCode, inUrl.json().error], [400, 'key_in_url']);
  const unknown = await inject({ payload: { iban: IBAN }, headers: { authorization: `Bearer ifk_${'0'.repeat(64)}` } });
  assert.deepEqual([unknown.statusCode, unknown.json().error], [401, 'invalid_api_key']);
  const batch = await inject({ url: '/v1/iban/batch', payload: { ibans: [IBAN] } });
  assert.deepEqual([batch.statusCode, batch.json().cause.reason], [402, 'key_or_payment_required']);

  const served = await inject({ payload: { iban: IBAN }, headers: { authorization: `Bearer ${key}` } });
  assert.equal(served.statusCode, 200);
  assert.equal(served.json().valid, true);
  assert.equal(served.headers['x-quota-used'], '1');
  const badBody = await inject({ payload: { iban: 42 }, headers: { authorization: `Bearer ${key}` } });
  assert.deepEqual([badBody.statusCode, badBody.json().error], [400, 'invalid_request']);
  assert.equal(badBody.headers['x-quota-used'], '1', 'the refused call was refunded');
});
