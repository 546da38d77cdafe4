/**
 * CORS (docs/api.md, "CORS"): the data routes and GET /v1/keys/usage answer pages of any origin,
 * preflights included (204, never metered); the key routes, /mcp and the card routes send no
 * CORS header. What a browser does with these headers: test/web/cors.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isCorsRoute } from '../../src/api/declaration.ts';
import { API_ROUTES } from '../../src/api/index.ts';
import { startService } from '../support/app.ts';
import type { Reply } from '../support/http.ts';

const IBAN = 'DE89370400440532013000';
const PAGE = 'http://127.0.0.1:9';
const EXPOSED = [
  'x-quota-used',
  'x-quota-limit',
  'x-quota-remaining',
  'x-quota-month',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
];

const listed = (r: Reply, header: string) =>
  String(r.headers[header] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
const path = (url: string) => url.replace(/:(\w+)/g, 'x');

describe('CORS', async () => {
  const svc = await startService();

  test('the routes open to other origins are the data routes and GET /v1/keys/usage, from their declarations', () => {
    assert.deepEqual(
      API_ROUTES.filter(isCorsRoute).map((r) => `${r.method} ${r.url}`),
      [
        'POST /v1/iban/validate',
        'POST /v1/iban/batch',
        'POST /v1/iban/from-account',
        'POST /v1/iban/extract',
        'POST /v1/reference/validate',
        'POST /v1/reference/create',
        'POST /v1/payment/check',
        'POST /v1/payment/qr',
        'POST /v1/payment/qr/read',
        'GET /v1/bic/:code',
        'POST /v1/iban/compliance',
        'GET /v1/ch/clearing/:iid',
        'GET /v1/keys/usage',
      ],
    );
  });

  test('a preflight is answered 204 with what a page may send, for every such route', async () => {
    for (const route of API_ROUTES.filter(isCorsRoute)) {
      const r = await svc.call(path(route.url), {
        method: 'OPTIONS',
        headers: {
          origin: PAGE,
          'access-control-request-method': route.method,
          'access-control-request-headers': 'authorization,content-type,idempotency-key',
        },
      });
      const what = `OPTIONS ${route.url}`;
      assert.equal(r.status, 204, what);
      assert.equal(r.text, '', what);
      assert.equal(r.headers['access-control-allow-origin'], '*', what);
      assert.deepEqual(listed(r, 'access-control-allow-methods'), [route.method.toLowerCase()], what);
      assert.deepEqual(listed(r, 'access-control-allow-headers'), ['authorization', 'content-type', 'idempotency-key']);
      assert.equal(r.headers['access-control-allow-credentials'], undefined, what);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', what);
    }
  });

  test('a preflight costs nothing: neither a key (even one sent) nor the trial is charged', async () => {
    const from = '127.0.40.1';
    const key = await svc.newKey(from);
    for (const headers of [{ authorization: `Bearer ${key}` }, {}] as Record<string, string>[]) {
      const r = await svc.call('/v1/iban/validate', {
        method: 'OPTIONS',
        from,
        headers: { ...headers, origin: PAGE, 'access-control-request-method': 'POST' },
      });
      assert.equal(r.status, 204);
      assert.equal(r.headers['x-quota-used'], undefined);
    }
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
    assert.equal((await svc.call('/v1/keys/usage', { from })).body.used, 0);
  });

  test('answers, refusals and 405s of those routes carry the CORS headers; no credentials', async () => {
    const from = '127.0.40.2';
    const key = await svc.newKey(from);
    const headers = { origin: PAGE };
    const answers = {
      keyed: await svc.call('/v1/iban/validate', { json: { iban: IBAN }, key, headers, from }),
      trial: await svc.call('/v1/iban/validate', { json: { iban: IBAN }, headers, from }),
      usage: await svc.call('/v1/keys/usage', { key, headers }),
      bic: await svc.call('/v1/bic/COBADEFF', { key, headers }),
      unknownKey: await svc.call('/v1/bic/COBADEFF', { key: `ifk_${'0'.repeat(64)}`, headers }),
      wrongMethod: await svc.call('/v1/iban/validate', { headers }),
      head: await svc.call('/v1/bic/COBADEFF', { method: 'HEAD', key, headers }),
      // refused before any route is found: a percent-escape that does not decode
      badEscape: await svc.call('/v1/bic/%zz', { key, headers }),
    };
    assert.deepEqual(
      Object.values(answers).map((r) => r.status),
      [200, 200, 200, 200, 401, 405, 405, 400],
    );
    for (const [name, r] of Object.entries(answers)) {
      assert.equal(r.headers['access-control-allow-origin'], '*', name);
      assert.equal(r.headers['access-control-allow-credentials'], undefined, name);
      for (const header of EXPOSED) assert.ok(listed(r, 'access-control-expose-headers').includes(header), header);
    }
    assert.equal(answers.keyed.headers['x-quota-used'], '1');
    assert.equal(answers.trial.headers['ratelimit-remaining'], '24');
  });

  test('the key routes, /mcp and the card routes send no CORS header, and have no preflight', async () => {
    const key = await svc.newKey('127.0.40.3');
    for (const url of [
      '/v1/keys/generate',
      '/v1/keys/rotate',
      '/v1/keys/claim',
      '/v1/keys/usage/daily',
      '/mcp',
      '/v1/card/checkout',
    ]) {
      const preflight = await svc.call(url, {
        method: 'OPTIONS',
        headers: { origin: PAGE, 'access-control-request-method': 'POST' },
      });
      assert.notEqual(preflight.status, 204, url);
      assert.equal(preflight.headers['access-control-allow-origin'], undefined, `OPTIONS ${url}`);
      // A server's call (no Origin) is answered as ever, still without CORS headers.
      const r = await svc.call(url, { method: url.endsWith('daily') ? 'GET' : 'POST', key, json: {} });
      assert.equal(r.headers['access-control-allow-origin'], undefined, url);
    }
    // And their cross-site guard still refuses a page of another origin.
    const refused = await svc.call('/v1/keys/generate', {
      method: 'POST',
      headers: { origin: PAGE },
      from: '127.0.40.4',
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'cross_site_request');
  });
});
