import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

// docs/api.md, "Order of checks": key in URL/body (400), credentials (401), payment or quota (402),
// then the body (400 or 415). Only a body over 1 MiB is refused earlier, before it is read.
const IBAN = 'DE89370400440532013000';
const plain = (raw: string) => ({ raw, headers: { 'content-type': 'text/plain' } });

describe('a wrong content type is judged after credentials and quota', () => {
  test('a batch with no key and a text/plain body is 402, not 415', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/batch', plain(IBAN));
    assert.equal(r.status, 402, r.text);
    assert.equal(r.body.cause.reason, 'key_or_payment_required');
  });

  test('an unknown key with a text/plain body is 401, not 415', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/batch', { ...plain(IBAN), key: `ifk_${'0'.repeat(64)}` });
    assert.equal(r.status, 401, r.text);
    assert.equal(r.body.error, 'invalid_api_key');
  });

  test('a valid key with a text/plain body is 415 with the X-Quota headers, and refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { ...plain(IBAN), key });
    assert.equal(r.status, 415, r.text);
    assert.equal(r.body.error, 'unsupported_media_type');
    assert.equal(typeof r.body.message, 'string');
    assert.deepEqual(
      [
        r.headers['x-quota-used'],
        r.headers['x-quota-limit'],
        r.headers['x-quota-remaining'],
        r.headers['x-quota-month'],
      ],
      ['0', '25', '25', '2026-11'],
    );
    assert.equal(r.headers.connection, 'close', 'the unread body is not drained');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
  });

  test('a body without a Content-Type, or with one that is not a media type, takes the same path', async () => {
    const svc = await startService();
    const noType = await svc.call('/v1/iban/batch', { raw: IBAN });
    assert.equal(noType.status, 402, noType.text);
    const garbage = await svc.call('/v1/iban/batch', { raw: IBAN, headers: { 'content-type': 'not a type' } });
    assert.equal(garbage.status, 402, garbage.text);
    const key = await svc.newKey();
    const keyed = await svc.call('/v1/iban/validate', { raw: IBAN, key, headers: { 'content-type': 'nonsense' } });
    assert.equal(keyed.status, 415, keyed.text);
    assert.equal(keyed.headers['x-quota-used'], '0');
  });

  test('a route without auth or metering still answers 415 for a wrong content type', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/keys/generate', plain('source=docs'));
    assert.equal(r.status, 415, r.text);
    assert.equal(r.body.error, 'unsupported_media_type');
  });

  test('a body over 1 MiB is 413 before credentials and payment are judged', async () => {
    const svc = await startService();
    const big = 'x'.repeat(1024 * 1024 + 1);
    const noKey = await svc.call('/v1/iban/batch', plain(big));
    assert.equal(noKey.status, 413, noKey.text);
    assert.equal(noKey.body.error, 'payload_too_large');
    const badKey = await svc.call('/v1/iban/batch', {
      raw: big,
      key: `ifk_${'0'.repeat(64)}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(badKey.status, 413, badKey.text);
  });
});
