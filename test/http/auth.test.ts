import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

const IBAN = 'DE89370400440532013000';

describe('credentials', () => {
  test('a key in the query string is refused with 400 key_in_url and is not used', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call(`/v1/keys/usage?api_key=${key}`);
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'key_in_url');
    assert.equal(r.text.includes(key), false, 'the error body never echoes the key');
    assert.equal(r.headers['x-quota-used'], undefined);
  });

  test('a key in a JSON body is refused with 400 key_in_body, even with a valid header key', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: IBAN, api_key: key } });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'key_in_body');
    const usage = await svc.call('/v1/keys/usage', { key });
    assert.equal(usage.body.used, 0, 'nothing was charged');
  });

  test('an unknown key is 401 invalid_api_key', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', { key: `ifk_${'0'.repeat(64)}`, json: { iban: IBAN } });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'invalid_api_key');
  });

  test('a malformed or absurd Authorization header is 401, never 5xx', async () => {
    const svc = await startService();
    for (const value of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ' + 'x'.repeat(8000), 'Bearer ifk_zz', 'ifk_'.repeat(500), '\u00ff\u00fe']) {
      const r = await svc.call('/v1/keys/usage', { headers: { authorization: value } });
      assert.equal(r.status, 401, value.slice(0, 20));
      assert.equal(r.body.error, 'invalid_api_key');
      assert.equal(typeof r.body.message, 'string');
    }
  });

  test('an Authorization header beyond the server\'s header limit gets a JSON 4xx', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/keys/usage', { headers: { authorization: 'Bearer ' + 'a'.repeat(100_000) } });
    assert.equal(r.status, 431);
    assert.equal(r.body.error, 'header_too_large');
    assert.equal(typeof r.body.message, 'string');
  });
});
