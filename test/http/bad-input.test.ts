import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

async function expectClientError(r: { status: number; body: any }, status: number, error: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error, error);
  assert.equal(typeof r.body.message, 'string');
}

describe('bad input gets a clear 4xx and is not charged', () => {
  test('a body over 1 MiB is 413 payload_too_large', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89', pad: 'x'.repeat(1024 * 1024) } });
    await expectClientError(r, 413, 'payload_too_large');
  });

  test('a wrong content type is 415 unsupported_media_type', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', {
      raw: 'iban=DE89370400440532013000',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await expectClientError(r, 415, 'unsupported_media_type');
  });

  test('a body that is not UTF-8 (Windows-1252 from an older ERP) is 400 invalid_json, not read with its letters replaced', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const payment = (name: string) =>
      `{"creditor":{"iban":"DE89370400440532013000","name":"${name}"},"currency":"EUR","amount":"12.50"}`;
    const latin1 = await svc.call('/v1/payment/check', {
      key,
      raw: Buffer.from(payment('M\u00fcller GmbH'), 'latin1'),
      headers: { 'content-type': 'application/json' },
    });
    await expectClientError(latin1, 400, 'invalid_json');
    assert.match(latin1.body.message, /UTF-8/);
    const utf8 = await svc.call('/v1/payment/check', {
      key,
      raw: Buffer.from(payment('M\u00fcller GmbH'), 'utf8'),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(utf8.status, 200, utf8.text);
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1, 'the refused body was not charged');
  });

  test('a JSON array, a number or a string as the body is 400 invalid_request', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const body of [[1, 2], 42, 'DE89370400440532013000', null]) {
      await expectClientError(await svc.call('/v1/iban/validate', { key, json: body }), 400, 'invalid_request');
    }
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
  });

  test('a wrong-typed iban, a missing iban and a 10k-character iban are 400 invalid_request and refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const body of [
      { iban: 12345 },
      { iban: null },
      { iban: ['DE89370400440532013000'] },
      {},
      { iban: 'D'.repeat(10_000) },
      { iban: 'DE89 3704 0044 0532 0130 00 '.repeat(3) },
    ]) {
      const r = await svc.call('/v1/iban/validate', { key, json: body });
      await expectClientError(r, 400, 'invalid_request');
      assert.equal(r.headers['x-quota-used'], '0', 'the headers show the balance after the refund');
    }
  });

  test('a batch item that is not a string is 400 invalid_request; more than 1000 is 400 batch_too_large', async () => {
    const svc = await startService();
    const key = await svc.makePro(await svc.newKey('127.0.0.2'));
    await expectClientError(
      await svc.call('/v1/iban/batch', { key, json: { ibans: ['DE89370400440532013000', 7] } }),
      400,
      'invalid_request',
    );
    await expectClientError(
      await svc.call('/v1/iban/batch', { key, json: { ibans: Array(1001).fill('DE89370400440532013000') } }),
      400,
      'batch_too_large',
    );
    await expectClientError(await svc.call('/v1/iban/batch', { key, json: { ibans: [] } }), 400, 'invalid_request');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
  });

  test('deeply nested JSON is a 4xx, never a crash', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const depth = 100_000;
    const r = await svc.call('/v1/iban/validate', {
      key,
      raw: '['.repeat(depth) + ']'.repeat(depth),
      headers: { 'content-type': 'application/json' },
    });
    assert.ok(r.status >= 400 && r.status < 500, String(r.status));
    assert.equal(typeof r.body.error, 'string');
    const nestedObject = await svc.call('/v1/iban/validate', {
      key,
      raw: `${'{"iban":'.repeat(5000)}"x"${'}'.repeat(5000)}`,
      headers: { 'content-type': 'application/json' },
    });
    await expectClientError(nestedObject, 400, 'invalid_json');
  });

  test('JSON nested deeper than 64 levels is 400 invalid_json before it is parsed, on every route; 64 levels are parsed', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const deep = (n: number) => `{"iban":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    const send = (path: string, raw: string) =>
      svc.call(path, { key, raw, headers: { 'content-type': 'application/json' } });
    for (const path of ['/v1/iban/validate', '/v1/iban/batch', '/v1/iban/extract', '/v1/keys/generate', '/mcp']) {
      const r = await send(path, deep(65));
      await expectClientError(r, 400, 'invalid_json');
      assert.match(r.body.message, /deeper than 64 levels/, path);
    }
    // The probe's body: 500,000 levels
    const huge = await send('/v1/iban/validate', '['.repeat(500_000) + ']'.repeat(500_000));
    await expectClientError(huge, 400, 'invalid_json');
    assert.match(huge.body.message, /deeper than 64 levels/);
    // 64 levels pass the scan and reach the schema; brackets inside strings (and escaped quotes) are not nesting
    await expectClientError(await send('/v1/iban/validate', deep(64)), 400, 'invalid_request');
    const inString = await send(
      '/v1/iban/validate',
      JSON.stringify({ iban: 'DE89370400440532013000', note: `\\"${'['.repeat(100)}` }),
    );
    assert.notEqual(inString.body.error, 'invalid_json', inString.text);
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1, 'only the valid call is charged');
  });

  test("a URL the router cannot decode is 400 invalid_request with the service's error body", async () => {
    const svc = await startService();
    const r = await svc.call('/v1/bic/%zz');
    await expectClientError(r, 400, 'invalid_request');
    assert.deepEqual(Object.keys(r.body).sort(), ['error', 'message'], "not Fastify's own body");
  });

  test('an unknown route is a JSON 404', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/nope');
    await expectClientError(r, 404, 'not_found');
    assert.equal(r.body.message, 'No route for GET at this path. Every route is in /openapi.json.');
  });

  test("a 404 names the route a path typed from memory meant, and a 405 the route's path as documented", async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const json = { iban: 'DE89370400440532013000' };
    const meant = async (path: string, method = 'POST') => {
      const r = await svc.call(path, { method, key, ...(method === 'POST' && { json }) });
      await expectClientError(r, 404, 'not_found');
      return /Did you mean (.*)\?/.exec(r.body.message)?.[1];
    };
    assert.equal(await meant('/v1/iban/valdiate'), 'POST /v1/iban/validate');
    assert.equal(await meant('/v1/IBAN/validate/'), 'POST /v1/iban/validate');
    assert.equal(await meant('/iban/validate'), 'POST /v1/iban/validate');
    assert.equal(await meant('/v1/validate'), 'POST /v1/iban/validate or POST /v1/reference/validate');
    assert.equal(await meant('/v1/bic', 'GET'), 'GET /v1/bic/{code}');
    assert.equal(
      await meant('/v1/iban'),
      'POST /v1/iban/validate or POST /v1/iban/batch or POST /v1/iban/from-account',
    );
    assert.equal(await meant('/v1/keys/usag', 'GET'), 'GET /v1/keys/usage');
    assert.equal(await meant('/v1/weather'), undefined, 'nothing named from afar');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0, 'a 404 costs nothing');

    const wrongMethod = await svc.call('/v1/bic/COBADEFF', { method: 'POST', key, json: {} });
    await expectClientError(wrongMethod, 405, 'method_not_allowed');
    assert.equal(wrongMethod.body.message, 'POST is not served on /v1/bic/{code}: send GET.');
  });

  test("a trailing slash on a data route's path is a 404 naming the route, never a 405 for the method it serves", async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const cases: [string, string, string][] = [
      ['POST', '/v1/iban/validate/', 'POST /v1/iban/validate'],
      ['GET', '/v1/bic/COBADEFF/', 'GET /v1/bic/{code}'],
      ['GET', '/v1/ch/clearing/230/', 'GET /v1/ch/clearing/{iid}'],
      // a method the route does not serve, sent to the path with a slash, is not on its path either
      ['TRACE', '/v1/iban/validate/', 'POST /v1/iban/validate'],
    ];
    for (const [method, path, route] of cases) {
      const r = await svc.call(path, {
        method,
        key,
        ...(method === 'POST' && { json: { iban: 'DE89370400440532013000' } }),
      });
      await expectClientError(r, 404, 'not_found');
      assert.match(r.body.message, new RegExp(`^No route for ${method} at this path\\. Did you mean ${route}[ ?]`));
      assert.equal(r.headers.allow, undefined, `${method} ${path}`);
      assert.equal(r.headers['x-quota-used'], undefined, 'a 404 comes before the key is looked at');
    }
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0, 'a 404 costs nothing');
  });
});
