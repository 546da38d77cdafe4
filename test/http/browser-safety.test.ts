import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

const generate = (headers: Record<string, string>, from: string) => ({ method: 'POST', headers, from });

describe('cross-site browser requests to the key routes', () => {
  test('generate from another site is 403 cross_site_request, by Sec-Fetch-Site or Origin', async () => {
    const svc = await startService();
    let n = 10;
    const from = () => `127.0.5.${n++}`;
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: svc.url.replace('127.0.0.1', 'localhost') },
      { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
    ] as Record<string, string>[]) {
      const r = await svc.call('/v1/keys/generate', generate(headers, from()));
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.equal(r.body.error, 'cross_site_request');
      assert.equal(typeof r.body.message, 'string');
    }
    for (const headers of [
      {},
      { 'sec-fetch-site': 'same-origin', origin: svc.url },
      { 'sec-fetch-site': 'none' },
    ] as Record<string, string>[]) {
      assert.equal(
        (await svc.call('/v1/keys/generate', generate(headers, from()))).status,
        201,
        JSON.stringify(headers),
      );
    }
  });

  test('a page of the service at an IP address, localhost or the public URL may generate; at another name it may not (DNS rebinding)', async () => {
    // README's start: MOD97_PUBLIC_URL unset (http://localhost:3000), the page opened at 127.0.0.1.
    const svc = await startService({ env: { MOD97_PUBLIC_URL: 'http://localhost:3000' } });
    const port = new URL(svc.url).port;
    let n = 10;
    const from = () => `127.0.6.${n++}`;
    const pageAt = (origin: string, host?: string) => ({
      'sec-fetch-site': 'same-origin',
      origin,
      ...(host ? { host } : {}),
    });
    for (const headers of [
      pageAt(svc.url),
      pageAt(`http://localhost:${port}`, `localhost:${port}`),
      pageAt('http://localhost:3000', `mod97.lan:${port}`),
    ]) {
      const r = await svc.call('/v1/keys/generate', generate(headers, from()));
      assert.equal(r.status, 201, `${JSON.stringify(headers)}: ${r.text}`);
    }
    for (const headers of [
      // DNS rebinding: a name made to resolve to this machine sends its own name as both (docs/security.md, "Cross-site requests")
      pageAt(`http://evil.example:${port}`, `evil.example:${port}`),
      pageAt(`http://mod97.lan:${port}`, `mod97.lan:${port}`),
      { origin: 'http://evil.example', host: `mod97.lan:${port}` },
      { origin: `http://mod97.lan:${port}`, host: `127.0.0.1:${port}` },
      { origin: `https://mod97.lan:${port}`, host: `mod97.lan:${port}` },
      { origin: 'null', host: `127.0.0.1:${port}` },
      { 'sec-fetch-site': 'cross-site', origin: svc.url },
      { 'sec-fetch-site': 'same-site' },
    ] as Record<string, string>[]) {
      const r = await svc.call('/v1/keys/generate', generate(headers, from()));
      assert.deepEqual([r.status, r.body.error], [403, 'cross_site_request'], JSON.stringify(headers));
    }
    // The service's own page at a LAN name is told where its pages work, not to "call from its own pages".
    const lan = await svc.call(
      '/v1/keys/generate',
      generate(pageAt(`http://mod97.lan:${port}`, `mod97.lan:${port}`), from()),
    );
    assert.equal(
      lan.body.message,
      `This page was opened at http://mod97.lan:${port}, a name this service does not know as its own (another site's name can be made to point here), so it cannot create, claim or rotate keys from there. Open it at http://localhost:3000 or http://localhost:${port} instead, or have the operator set MOD97_PUBLIC_URL to http://mod97.lan:${port}.`,
    );
  });

  test('/mcp follows the same rule, and its own origin counts only on a host DNS cannot rebind', async () => {
    const svc = await startService({ env: { MOD97_PUBLIC_URL: 'http://localhost:3000' } });
    const port = new URL(svc.url).port;
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const accept = { accept: 'application/json, text/event-stream' };
    const mcp = (headers: Record<string, string>) =>
      svc.call('/mcp', { json: initialize, headers: { ...accept, ...headers } });
    assert.equal((await mcp({ origin: svc.url })).status, 200, 'a page at 127.0.0.1, public URL on localhost');
    assert.equal((await mcp({ origin: `http://localhost:${port}`, host: `localhost:${port}` })).status, 200);
    assert.equal((await mcp({})).status, 200);
    for (const headers of [
      // DNS rebinding: evil.example made to resolve to this machine sends its own name as both.
      { origin: `http://evil.example:${port}`, host: `evil.example:${port}` },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'http://evil.example' },
    ] as Record<string, string>[]) {
      const r = await mcp(headers);
      assert.deepEqual([r.status, r.body.error], [403, 'cross_site_request'], JSON.stringify(headers));
    }
  });

  test('rotate and claim are judged before credentials, and the key is left as it was', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const crossSite = { origin: 'https://evil.example' };
    const rotate = await svc.call('/v1/keys/rotate', { method: 'POST', key, headers: crossSite });
    assert.equal(rotate.status, 403);
    assert.equal(rotate.body.error, 'cross_site_request');
    const claim = await svc.call('/v1/keys/claim', {
      key: `ifk_${'0'.repeat(64)}`,
      json: { email: 'dev@example.com' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(claim.status, 403, 'not 401: the unknown key is not even looked at');
    assert.equal(claim.body.error, 'cross_site_request');
    const port = new URL(svc.url).port;
    const rebound = { origin: `http://evil.example:${port}`, host: `evil.example:${port}` };
    const rotateRebound = await svc.call('/v1/keys/rotate', { method: 'POST', key, headers: rebound });
    assert.deepEqual([rotateRebound.status, rotateRebound.body.error], [403, 'cross_site_request'], 'DNS rebinding');
    assert.equal((await svc.call('/v1/keys/usage', { key })).status, 200, 'the key was not rotated');
    assert.equal((await svc.call('/v1/keys/rotate', { method: 'POST', key })).status, 200, 'curl is unaffected');
  });

  test('other routes take cross-site requests as before', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', {
      json: { iban: 'DE89370400440532013000' },
      headers: { origin: 'https://invoices.example', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(r.status, 200);
  });
});

describe('response headers', () => {
  test('answers carrying a key secret are no-store; every answer is nosniff', async () => {
    const svc = await startService();
    const created = await svc.call('/v1/keys/generate', { method: 'POST' });
    assert.equal(created.status, 201);
    assert.equal(created.headers['cache-control'], 'no-store');
    const rotated = await svc.call('/v1/keys/rotate', { method: 'POST', key: created.body.api_key });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.headers['cache-control'], 'no-store');
    const key = rotated.body.api_key;
    const answers = [
      rotated,
      await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' } }),
      await svc.call('/v1/keys/usage', { key }),
      await svc.call('/v1/nope'),
      await svc.call('/v1/bic/%zz'),
      await svc.call('/v1/keys/usage', { key: `ifk_${'0'.repeat(64)}` }),
      await svc.call('/healthz'),
    ];
    for (const r of answers) assert.equal(r.headers['x-content-type-options'], 'nosniff', `${r.status} ${r.text}`);
    assert.equal(answers[1].headers['cache-control'], undefined, 'an answer without a secret may be cached');
  });
});
