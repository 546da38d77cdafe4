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

  test('a key hidden by JSON escapes in a body value or member name is still key_in_body and not charged', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const escaped = `\\u0069fk_${key.slice(4)}`;
    for (const raw of [
      `{"iban":"${IBAN}","k":"${escaped}"}`,
      `{"${escaped}":1,"iban":"${IBAN}"}`,
      `{"iban":"${IBAN}","k":[{"deep":"ifk_${key.slice(4, 40)}\\u0030${key.slice(41)}"}]}`,
    ]) {
      const r = await svc.call('/v1/iban/validate', { key, raw, headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 400, raw);
      assert.equal(r.body.error, 'key_in_body');
    }
    const harmless = await svc.call('/v1/iban/validate', {
      key,
      raw: `{"iban":"${IBAN}","note":"a \\"quoted\\" \\u0069fk_ prefix"}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(harmless.status, 200, 'escapes without a key are fine');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1);
  });

  test('a percent-encoded key in the query string is still key_in_url', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const encoded = `%69fk%5F${key.slice(4)}`;
    for (const query of [`?api_key=${encoded}`, `?x=%zz&api_key=${encoded}`]) {
      const r = await svc.call(`/v1/keys/usage${query}`, { key });
      assert.equal(r.status, 400, query);
      assert.equal(r.body.error, 'key_in_url');
    }
    assert.equal((await svc.call('/v1/keys/usage?x=%20', { key })).status, 200, 'other percent-encoding is fine');
  });

  test('an unknown key is 401 invalid_api_key', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', { key: `ifk_${'0'.repeat(64)}`, json: { iban: IBAN } });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'invalid_api_key');
  });

  test('a malformed or absurd Authorization header is 401, never 5xx', async () => {
    const svc = await startService();
    for (const value of [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      `Bearer ${'x'.repeat(8000)}`,
      'Bearer ifk_zz',
      'ifk_'.repeat(500),
      '\u00ff\u00fe',
    ]) {
      const r = await svc.call('/v1/keys/usage', { headers: { authorization: value } });
      assert.equal(r.status, 401, value.slice(0, 20));
      assert.equal(r.body.error, 'invalid_api_key');
      assert.equal(typeof r.body.message, 'string');
    }
  });

  test('each 401 says which case it is: no key, no Bearer, a malformed key, an unknown key', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const unknown = `ifk_${'0'.repeat(64)}`;
    const cases: [string, Record<string, string>, RegExp][] = [
      ['an empty bearer', { authorization: 'Bearer ' }, /^No API key was sent: the Authorization header is empty/],
      ['an empty X-API-Key', { 'x-api-key': ' ' }, /^No API key was sent: the X-API-Key header is empty/],
      ['a key without Bearer', { authorization: key }, /does not start with Bearer/],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }, /does not start with Bearer/],
      [
        'a short key',
        { authorization: 'Bearer ifk_abc' },
        /^The API key is malformed\. A key is .*64 lower-case hexadecimal.* has 7 characters/,
      ],
      [
        'an upper-case key',
        { 'x-api-key': key.toUpperCase() },
        /^The API key is malformed: its letters are upper case/,
      ],
      ['an unknown key', { authorization: `Bearer ${unknown}` }, /^The API key is unknown, rotated or revoked/],
    ];
    const messages = new Set<string>();
    for (const [label, headers, expected] of cases) {
      for (const path of ['/v1/keys/usage', '/v1/iban/validate']) {
        const r = await svc.call(path, { headers, ...(path.endsWith('validate') && { json: { iban: IBAN } }) });
        assert.equal(r.status, 401, `${label} on ${path}`);
        assert.equal(r.body.error, 'invalid_api_key', label);
        assert.match(r.body.message, expected, label);
        assert.equal(
          r.text.includes(key.slice(4)) || r.text.includes('dXNlcjpwYXNz'),
          false,
          `${label}: nothing sent is echoed`,
        );
        messages.add(r.body.message.split(/[:.]/)[0]);
      }
    }
    assert.equal(messages.size, 4, [...messages].join(' | '));
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0, 'nothing was charged');
  });

  test("an Authorization header beyond the server's header limit gets a JSON 4xx", async () => {
    const svc = await startService();
    const r = await svc.call('/v1/keys/usage', { headers: { authorization: `Bearer ${'a'.repeat(100_000)}` } });
    assert.equal(r.status, 431);
    assert.equal(r.body.error, 'headers_too_large');
    assert.equal(typeof r.body.message, 'string');
  });
});
