import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

describe('/metrics access', () => {
  test('without MOD97_METRICS_TOKEN: loopback callers only; a request through a proxy is 403', async () => {
    const svc = await startService({ env: { MOD97_TRUST_PROXY: '127.0.0.2' } });
    const local = await svc.call('/metrics');
    assert.equal(local.status, 200);
    assert.match(local.text, /mod97_http_requests_total/);
    for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }] as Record<
      string,
      string
    >[]) {
      const r = await svc.call('/metrics', { from: '127.0.0.2', headers });
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.equal(r.body.error, 'metrics_forbidden');
      assert.equal(typeof r.body.message, 'string');
      assert.doesNotMatch(r.text, /mod97_http_requests_total/);
    }
  });

  test('with MOD97_METRICS_TOKEN: only Authorization: Bearer <token>, from anywhere', async () => {
    const token = 'metrics-token-0123456789';
    const svc = await startService({ env: { MOD97_METRICS_TOKEN: token } });
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${token}x` }] as Record<
      string,
      string
    >[]) {
      const r = await svc.call('/metrics', { headers });
      assert.equal(r.status, 401, JSON.stringify(headers));
      assert.equal(r.body.error, 'metrics_token_required');
      assert.equal(r.headers['www-authenticate'], 'Bearer realm="metrics"');
    }
    const ok = await svc.call('/metrics', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200);
    assert.match(ok.text, /mod97_http_requests_total/);
  });
});
