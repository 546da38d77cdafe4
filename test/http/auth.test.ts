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

  test('a credential header with no usable key is 401 on generate too, where no key is needed, and makes no key', async () => {
    const svc = await startService();
    const from = '127.0.4.1';
    const unusable: Record<string, string>[] = [
      { authorization: 'Bearer junk' },
      { authorization: `Bearer ifk_${'0'.repeat(64)}` },
      { authorization: 'Bearer ' },
      { 'x-api-key': 'junk' },
    ];
    for (const headers of unusable) {
      const r = await svc.call('/v1/keys/generate', { method: 'POST', headers, from });
      assert.deepEqual([r.status, r.body.error], [401, 'invalid_api_key'], JSON.stringify(headers));
      assert.equal(r.body.api_key, undefined);
    }
    // None of them counted toward the network's 3 free keys of the day.
    for (let i = 0; i < 3; i++)
      assert.equal((await svc.call('/v1/keys/generate', { method: 'POST', from })).status, 201);
  });

  test('a valid key sent to generate is judged but not used: a key of its own, no balance of the key sent', async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.4.2');
    await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
    const r = await svc.call('/v1/keys/generate', { method: 'POST', key, from: '127.0.4.2' });
    assert.equal(r.status, 201, r.text);
    assert.notEqual(r.body.api_key, key);
    assert.equal(r.body.monthly_limit, 25);
    // Beside a new key's body, another key's X-Quota-Limit would read as the new key's.
    for (const header of ['x-quota-used', 'x-quota-limit', 'x-quota-remaining', 'x-quota-month', 'ratelimit-limit'])
      assert.equal(r.headers[header], undefined, header);
    const fresh = await svc.call('/v1/keys/usage', { key: r.body.api_key });
    assert.equal(fresh.body.used, 0, 'the new key is a key of its own');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1, 'the key sent is unchanged');
  });

  test('both credential headers: each is judged; two different keys are refused, the same key twice is used once', async () => {
    const svc = await startService();
    const first = await svc.newKey('127.0.4.3');
    const second = await svc.newKey('127.0.4.4');
    const json = { iban: IBAN };
    const junk = await svc.call('/v1/iban/validate', { key: first, headers: { 'x-api-key': 'junk' }, json });
    assert.deepEqual([junk.status, junk.body.error], [401, 'invalid_api_key']);
    assert.match(junk.body.message, /^The API key is malformed\./);
    const junkBearer = await svc.call('/v1/iban/validate', {
      headers: { authorization: 'Bearer junk', 'x-api-key': first },
      json,
    });
    assert.deepEqual([junkBearer.status, junkBearer.body.error], [401, 'invalid_api_key']);

    const two = await svc.call('/v1/iban/validate', { key: first, headers: { 'x-api-key': second }, json });
    assert.deepEqual([two.status, two.body.error], [401, 'invalid_api_key']);
    assert.match(two.body.message, /^Two different API keys were sent, in Authorization and in X-API-Key/);
    assert.equal(two.text.includes(first.slice(4)) || two.text.includes(second.slice(4)), false, 'neither is echoed');
    assert.equal(two.headers['x-quota-used'], undefined, 'no key was taken for the caller');
    const onKeyRoute = await svc.call('/v1/keys/usage', { key: first, headers: { 'x-api-key': second } });
    assert.deepEqual([onKeyRoute.status, onKeyRoute.body.error], [401, 'invalid_api_key']);

    const same = await svc.call('/v1/iban/validate', { key: first, headers: { 'x-api-key': ` ${first} ` }, json });
    assert.deepEqual([same.status, same.headers['x-quota-used']], [200, '1']);
    assert.equal((await svc.call('/v1/keys/usage', { key: first })).body.used, 1, 'charged once, for the same key');
    assert.equal((await svc.call('/v1/keys/usage', { key: second })).body.used, 0);
  });

  test("an Authorization header beyond the server's header limit gets a JSON 4xx", async () => {
    const svc = await startService();
    const r = await svc.call('/v1/keys/usage', { headers: { authorization: `Bearer ${'a'.repeat(100_000)}` } });
    assert.equal(r.status, 431);
    assert.equal(r.body.error, 'headers_too_large');
    assert.equal(typeof r.body.message, 'string');
  });
});
