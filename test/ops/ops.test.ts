import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';

/** The value of one sample line of the Prometheus text, or 0 when the series is absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('operations surface', () => {
  test('/healthz says the process is alive, without a key and without charging anything', async () => {
    const svc = await startService();
    const r = await svc.call('/healthz', { from: '127.0.0.9' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'ok' });
    const usage = await svc.call('/v1/keys/usage', { from: '127.0.0.9' });
    assert.equal(usage.body.used, 0);
  });

  test('/readyz is 200 while the store answers and 503 unavailable once it does not', async () => {
    const svc = await startService();
    const ready = await svc.call('/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'ready');
    assert.equal(ready.body.store, 'sqlite');
    assert.equal(ready.body.data_version, svc.services.data.dataVersion());
    await svc.services.store.close();
    const down = await svc.call('/readyz');
    assert.equal(down.status, 503);
    assert.equal(down.body.error, 'unavailable');
    assert.match(down.body.message, /store is not reachable/);
    const alive = await svc.call('/healthz');
    assert.equal(alive.status, 200, 'a store outage does not make the process look dead');
  });

  test('/metrics counts requests by route and status, admissions, refunds, 402s and store latency', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (let i = 0; i < 25; i++) {
      const ok = await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
      assert.equal(ok.status, 200);
    }
    const exhausted = await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
    assert.equal(exhausted.status, 402);
    const bad = await svc.call('/v1/iban/validate', { json: { iban: 42 }, from: '127.0.0.5' });
    assert.equal(bad.status, 400);
    await svc.call('/no/such/path/12345');

    const r = await svc.call('/metrics');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    const m = r.text;
    assert.equal(sample(m, 'mod97_http_requests_total{method="POST",route="/v1/iban/validate",status="200"}'), 25);
    assert.equal(sample(m, 'mod97_http_requests_total{method="POST",route="/v1/iban/validate",status="402"}'), 1);
    assert.equal(sample(m, 'mod97_http_requests_total{method="POST",route="/v1/keys/generate",status="201"}'), 1);
    assert.equal(sample(m, 'mod97_http_requests_total{method="GET",route="unmatched",status="404"}'), 1);
    assert.equal(sample(m, 'mod97_counter_admits_total{scope="key",result="admitted"}'), 25);
    assert.equal(sample(m, 'mod97_counter_admits_total{scope="key",result="refused"}'), 1);
    assert.equal(sample(m, 'mod97_counter_admits_total{scope="trial",result="admitted"}'), 1);
    assert.equal(sample(m, 'mod97_counter_refunds_total{scope="trial"}'), 1, 'the 400 was refunded');
    assert.equal(sample(m, 'mod97_payment_required_total{reason="quota_exhausted"}'), 1);
    assert.equal(sample(m, 'mod97_http_request_duration_seconds_count{route="/v1/iban/validate"}'), 27);
    assert.equal(sample(m, 'mod97_http_request_duration_seconds_bucket{le="+Inf",route="/v1/iban/validate"}'), 27);
    const fast = sample(m, 'mod97_http_request_duration_seconds_bucket{le="0.0005",route="/v1/iban/validate"}');
    const slow = sample(m, 'mod97_http_request_duration_seconds_bucket{le="1",route="/v1/iban/validate"}');
    assert.ok(fast <= slow && slow <= 27, 'buckets count cumulatively');
    assert.ok(sample(m, 'mod97_http_request_duration_seconds_sum{route="/v1/iban/validate"}') > 0);
    assert.match(m, /^# TYPE mod97_http_request_duration_seconds histogram$/m);
    assert.match(m, /^# TYPE mod97_http_requests_total counter$/m);
    assert.match(m, /^mod97_process_cpu_user_seconds_total /m);
  });

  test('the no-key trial running out is counted as a 402 with its reason', async () => {
    const svc = await startService();
    for (let i = 0; i < 26; i++) await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.0.6' });
    const m = (await svc.call('/metrics')).text;
    assert.equal(sample(m, 'mod97_payment_required_total{reason="trial_exhausted"}'), 1);
    assert.equal(sample(m, 'mod97_counter_admits_total{scope="trial",result="refused"}'), 1);
  });

  test('the operations routes stay out of the OpenAPI document', async () => {
    const svc = await startService();
    const paths = Object.keys((await svc.call('/openapi.json')).body.paths);
    assert.ok(paths.includes('/v1/iban/validate'));
    for (const p of ['/healthz', '/readyz', '/metrics']) assert.equal(paths.includes(p), false, p);
  });
});
