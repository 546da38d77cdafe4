import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { pgUrl, throwawaySchema } from '../support/pg.ts';

const IBAN = 'DE89370400440532013000';

// PostgreSQL charges a key with its lookup in one statement (store/postgres/key-admissions.ts),
// SQLite in two steps: the same quota either way.
for (const [engine, skip] of [
  ['SQLite', false],
  ['PostgreSQL', pgUrl ? false : 'MOD97_TEST_POSTGRES_URL is not set'],
] as const) {
  describe(`quota on a key, ${engine}`, { skip }, () => {
    const start = () =>
      startService(engine === 'PostgreSQL' ? { databaseUrl: throwawaySchema('mod97_quota').url } : {});

    test('60 validate requests at once on a fresh anonymous key: exactly 25 succeed, 35 get 402, usage says 25', async () => {
      const svc = await start();
      const key = await svc.newKey();
      const replies = await Promise.all(
        Array.from({ length: 60 }, () => svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })),
      );
      assert.equal(replies.filter((r) => r.status === 200).length, 25);
      assert.equal(replies.filter((r) => r.status === 402).length, 35);
      const usage = await svc.call('/v1/keys/usage', { key });
      assert.equal(usage.body.used, 25);
      assert.equal(usage.body.remaining, 0);
    });

    test('an exhausted key gets 402 quota_exhausted with the X-Quota headers and machine-readable options', async () => {
      const svc = await start();
      const key = await svc.newKey();
      for (let i = 0; i < 25; i++)
        assert.equal((await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })).status, 200);
      const r = await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
      assert.equal(r.status, 402);
      assert.equal(r.headers['x-quota-exhausted'], 'true');
      assert.equal(r.headers['x-quota-used'], '25');
      assert.equal(r.headers['x-quota-limit'], '25');
      assert.equal(r.headers['x-quota-remaining'], '0');
      assert.equal(r.headers['x-quota-month'], '2026-11');
      assert.equal(r.body.error, 'quota_exhausted');
      assert.deepEqual([r.body.used, r.body.limit, r.body.month, r.body.basis], [25, 25, '2026-11', 'monthly']);
      assert.deepEqual(r.body.options, [
        { type: 'claim', method: 'email_code', url: `${svc.url}/v1/keys/claim`, raises_limit_to: 200 },
        { type: 'wait', resets_at: '2026-12-01T00:00:00Z' },
      ]);
    });

    test('every authenticated data response carries the X-Quota headers with the balance after the call', async () => {
      const svc = await start();
      const key = await svc.newKey();
      const r = await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
      assert.equal(r.status, 200);
      assert.deepEqual(
        [r.headers['x-quota-used'], r.headers['x-quota-limit'], r.headers['x-quota-remaining']],
        ['1', '25', '24'],
      );
    });

    test('a batch of n costs n, and a batch that does not fit whole is refused whole', async () => {
      const svc = await start();
      const key = await svc.newKey();
      const ten = await svc.call('/v1/iban/batch', { key, json: { ibans: Array(10).fill(IBAN) } });
      assert.equal(ten.status, 200);
      assert.equal(ten.headers['x-quota-used'], '10');
      const sixteen = await svc.call('/v1/iban/batch', { key, json: { ibans: Array(16).fill(IBAN) } });
      assert.equal(sixteen.status, 402, 'only 15 remain');
      assert.equal(sixteen.headers['x-quota-used'], '10');
      const fifteen = await svc.call('/v1/iban/batch', { key, json: { ibans: Array(15).fill(IBAN) } });
      assert.equal(fifteen.status, 200);
      assert.equal(fifteen.body.count, 15);
      assert.equal(fifteen.headers['x-quota-remaining'], '0');
    });

    test('the counters start at 0 in a new UTC month', async () => {
      const svc = await start();
      svc.clock.set('2026-11-30T23:59:00Z');
      const key = await svc.newKey();
      for (let i = 0; i < 25; i++) await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
      assert.equal((await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })).status, 402);
      svc.clock.set('2026-12-01T00:00:01Z');
      const r = await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
      assert.equal(r.status, 200);
      assert.equal(r.headers['x-quota-used'], '1');
      assert.equal(r.headers['x-quota-month'], '2026-12');
    });

    test('lifetime counters do not reset in a new month', async () => {
      const svc = await start();
      const key = await svc.newKey();
      const row = (await svc.services.keys.authenticate(key))!;
      await svc.services.store.changePlan(row.id, row.planRev, {
        tier: 'claimed',
        basis: 'lifetime',
        limit: 200,
        lifetimePeriod: 'lifetime:test',
      });
      for (let i = 0; i < 4; i++) await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
      svc.clock.set('2027-01-02T00:00:00Z');
      const usage = await svc.call('/v1/keys/usage', { key });
      assert.deepEqual(
        [usage.body.used, usage.body.limit, usage.body.basis, usage.body.month],
        [4, 200, 'lifetime', '2027-01'],
      );
    });

    test('a call answered 5xx is refunded, and the headers show the balance after the refund', async () => {
      const svc = await start();
      const key = await svc.newKey();
      // Test double, only to force a failure after admission: the BIC lookup throws.
      svc.services.data.bic = function failingBicLookup() {
        throw new Error('lookup failed');
      };
      const r = await svc.call('/v1/bic/DEUTDEFF', { key });
      assert.equal(r.status, 500);
      assert.equal(r.body.error, 'internal_error');
      assert.equal(r.headers['x-quota-used'], '0');
      assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
    });

    test('a batch served on a free key carries attribution; on a paid key it carries none', async () => {
      const svc = await start();
      const free = await svc.newKey();
      const onFree = await svc.call('/v1/iban/batch', { key: free, json: { ibans: [IBAN, IBAN] } });
      assert.equal(onFree.status, 200);
      assert.equal(onFree.body.attribution.text, 'Powered by mod97');
      assert.equal(onFree.body.attribution.url, svc.url);
      const paid = await svc.makePro(await svc.newKey('127.0.0.2'));
      const onPaid = await svc.call('/v1/iban/batch', { key: paid, json: { ibans: [IBAN, IBAN] } });
      assert.equal(onPaid.status, 200);
      assert.equal(onPaid.body.count, 2);
      assert.equal('attribution' in onPaid.body, false);
    });

    test('a credits key draws n per batch from its balance and a refused call gives the credits back', async () => {
      const svc = await start();
      const { secret } = await svc.services.keys.insert({
        tier: 'credits',
        network: '127.0.0.1',
        emailHash: null,
        alertBorn: false,
        limit: 1000,
        lifetimePeriod: 'credits:test',
      });
      const r = await svc.call('/v1/iban/batch', { key: secret, json: { ibans: Array(7).fill(IBAN) } });
      assert.equal(r.status, 200);
      assert.deepEqual(
        [r.headers['x-quota-used'], r.headers['x-quota-limit'], r.headers['x-quota-remaining']],
        ['7', '1000', '993'],
      );
      assert.equal('attribution' in r.body, false, 'paid keys carry no attribution');
      const bad = await svc.call('/v1/iban/batch', { key: secret, json: { ibans: [IBAN, 3] } });
      assert.equal(bad.status, 400);
      assert.equal(bad.headers['x-quota-remaining'], '993');
      const usage = await svc.call('/v1/keys/usage', { key: secret });
      assert.deepEqual(
        [usage.body.basis, usage.body.tier, usage.body.remaining, 'claim' in usage.body],
        ['credits', 'credits', 993, false],
      );
    });
  });
}

describe('the no-key trial on validate', () => {
  test('25 calls a day per network with the trial block and attribution; call 26 is 402 trial_exhausted', async () => {
    const svc = await startService();
    for (let i = 1; i <= 25; i++) {
      const r = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.0.3' });
      assert.equal(r.status, 200);
      assert.equal(r.body.trial.calls_left_today, 25 - i);
      if (i === 1) {
        assert.deepEqual(r.body.trial, {
          calls_left_today: 24,
          limit: 25,
          day: '2026-11-21',
          resets_at: '2026-11-22T00:00:00Z',
          get_key: { method: 'POST', url: `${svc.url}/v1/keys/generate` },
        });
        assert.deepEqual(Object.keys(r.body.attribution).sort(), ['note', 'text', 'url']);
        assert.equal(r.body.attribution.text, 'Powered by mod97');
      }
    }
    const r = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.0.3' });
    assert.equal(r.status, 402);
    assert.equal(r.body.error, 'payment_required');
    assert.deepEqual(r.body.cause, {
      reason: 'trial_exhausted',
      limit: 25,
      day: '2026-11-21',
      resets_at: '2026-11-22T00:00:00Z',
    });
    assert.deepEqual(r.body.options, [{ type: 'generate_key', method: 'POST', url: `${svc.url}/v1/keys/generate` }]);
    assert.equal(
      (await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.0.4' })).status,
      200,
      'another network has its own trial',
    );
    svc.clock.set('2026-11-22T00:00:00Z');
    assert.equal(
      (await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.0.3' })).status,
      200,
      'the trial resets at 00:00 UTC',
    );
  });

  test('a no-key validate answered 4xx does not use a trial call', async () => {
    const svc = await startService();
    await svc.call('/v1/iban/validate', { json: { iban: 42 } });
    const usage = await svc.call('/v1/keys/usage');
    assert.equal(usage.body.used, 0);
  });

  test('other data routes without a key are 402 key_or_payment_required, whatever the body', async () => {
    const svc = await startService();
    for (const json of [{ ibans: [IBAN] }, { nonsense: true }]) {
      const r = await svc.call('/v1/iban/batch', { json });
      assert.equal(r.status, 402);
      assert.equal(r.body.cause.reason, 'key_or_payment_required');
      assert.ok(r.body.options.some((o: { type: string }) => o.type === 'generate_key'));
    }
    const invalidJson = await svc.call('/v1/iban/batch', {
      raw: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(invalidJson.status, 402);
  });

  test("a free key's answers carry attribution", async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } });
    assert.equal(r.body.attribution.text, 'Powered by mod97');
    assert.equal(r.body.attribution.url, svc.url);
    assert.equal('trial' in r.body, false);
  });
});
