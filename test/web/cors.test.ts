/**
 * CORS in a real browser: a page of another origin (another 127.0.0.1 port) calls the service
 * with fetch, as any web app would. Validate works with a key, with the no-key trial and with an
 * Idempotency-Key (a retry is answered again, uncharged), and the page reads the quota headers;
 * a key route, same-origin only, fails for it. The headers themselves: test/http/cors.test.ts.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { openOtherOrigin } from '../support/other-origin.ts';
import { chromiumMissing } from './browser.ts';

const IBAN = 'DE89370400440532013000';

interface Seen {
  status?: number;
  valid?: boolean;
  headers?: Record<string, string | null>;
  failed?: string;
}

describe('a page of another origin', { skip: chromiumMissing }, async () => {
  const svc = await startService();
  const { origin, page, problems } = await openOtherOrigin({});
  const key = await svc.newKey('127.0.0.1');

  /** A fetch run by the page: what the page itself can read of the answer. */
  const fetchFromPage = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }) =>
    page.evaluate(
      async ({ url, method, headers, body }): Promise<Seen> => {
        try {
          const res = await fetch(url, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const names = [
            'x-quota-used',
            'x-quota-remaining',
            'x-quota-month',
            'ratelimit-remaining',
            'idempotent-replayed',
          ];
          const json = await res.json();
          return {
            status: res.status,
            valid: json.valid,
            headers: Object.fromEntries(names.map((n) => [n, res.headers.get(n)])),
          };
        } catch (e) {
          return { failed: `${(e as Error).name}: ${(e as Error).message}` };
        }
      },
      { url: svc.url + path, method: init.method ?? 'GET', headers: init.headers ?? {}, body: init.body },
    );

  test('it is another origin than the service', () => {
    assert.notEqual(origin, new URL(svc.url).origin);
  });

  test('validate with a key: the answer and its quota headers are readable', async () => {
    const seen = await fetchFromPage('/v1/iban/validate', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: { iban: IBAN },
    });
    assert.deepEqual([seen.failed, seen.status, seen.valid], [undefined, 200, true]);
    assert.equal(seen.headers?.['x-quota-used'], '1');
    assert.equal(seen.headers?.['x-quota-remaining'], '24');
    assert.equal(seen.headers?.['x-quota-month'], '2026-11');
  });

  test('validate without a key (the trial): its rate headers are readable', async () => {
    const seen = await fetchFromPage('/v1/iban/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { iban: IBAN },
    });
    assert.deepEqual([seen.failed, seen.status, seen.valid], [undefined, 200, true]);
    assert.equal(seen.headers?.['ratelimit-remaining'], '24');
  });

  test('validate with an Idempotency-Key: the retry is the first answer again, marked and uncharged', async () => {
    const init = {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'page-retry-1',
      },
      body: { iban: IBAN },
    };
    const first = await fetchFromPage('/v1/iban/validate', init);
    const again = await fetchFromPage('/v1/iban/validate', init);
    assert.deepEqual([first.status, again.status], [200, 200]);
    assert.equal(first.headers?.['idempotent-replayed'], null);
    assert.equal(again.headers?.['idempotent-replayed'], 'true');
    assert.equal(first.headers?.['x-quota-used'], '2');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 2);
  });

  test('GET /v1/keys/usage with a key is readable too', async () => {
    const seen = await fetchFromPage('/v1/keys/usage', { headers: { authorization: `Bearer ${key}` } });
    assert.deepEqual([seen.failed, seen.status, seen.headers?.['x-quota-used']], [undefined, 200, '2']);
  });

  test('a key route fails for it: its preflight is refused, so the call is never sent', async () => {
    // What reached the service, and how it answered.
    const answered: string[] = [];
    const listen = (req: IncomingMessage, res: ServerResponse) =>
      res.on('finish', () => answered.push(`${req.method} ${req.url} ${res.statusCode}`));
    svc.app.server.on('request', listen);
    const generate = await fetchFromPage('/v1/keys/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: {},
    });
    const rotate = await fetchFromPage('/v1/keys/rotate', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    // A form-like post needs no preflight: it is sent, and the cross-site guard refuses it.
    const simple = await fetchFromPage('/v1/keys/generate', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
    });
    svc.app.server.off('request', listen);
    for (const failed of [generate, rotate, simple]) assert.match(failed.failed ?? '', /^TypeError: Failed to fetch/);
    assert.deepEqual(answered, [
      'OPTIONS /v1/keys/generate 404',
      'OPTIONS /v1/keys/rotate 404',
      'POST /v1/keys/generate 403',
    ]);
    assert.deepEqual(problems, []);
  });
});
