import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

describe('POST /v1/keys/generate (anonymous path)', () => {
  test('an absent body gives an anonymous key of 25 a month, shown once, with claim and terms URLs', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/keys/generate', { method: 'POST' });
    assert.equal(r.status, 201);
    assert.match(r.body.api_key, /^ifk_[0-9a-f]{64}$/);
    assert.equal(r.body.key_prefix, r.body.api_key.slice(0, 8));
    assert.equal(r.body.tier, 'anonymous');
    assert.equal(r.body.monthly_limit, 25);
    assert.equal(r.body.claim_url, `${svc.url}/v1/keys/claim`);
    assert.equal(r.body.terms_url, `${svc.url}/terms`);
    assert.equal(typeof r.body.message, 'string');
    assert.equal('email' in r.body, false);
    assert.equal('notice' in r.body, false);
    const terms = await svc.call('/terms');
    assert.equal(terms.status, 200);
  });

  test('a body with only `source`, or an empty body of any content type, is the anonymous path too', async () => {
    const svc = await startService();
    const withSource = await svc.call('/v1/keys/generate', { json: { source: 'docs' }, from: '127.0.0.2' });
    assert.equal(withSource.status, 201);
    const empty = await svc.call('/v1/keys/generate', {
      method: 'POST',
      raw: '',
      headers: { 'content-type': 'application/json' },
      from: '127.0.0.3',
    });
    assert.equal(empty.status, 201);
    // What `curl -X POST -d ''` and an empty HTML form send: zero bytes are no body, whatever the type.
    for (const [type, from] of [
      ['application/x-www-form-urlencoded', '127.0.0.5'],
      ['text/plain', '127.0.0.6'],
    ]) {
      const r = await svc.call('/v1/keys/generate', {
        method: 'POST',
        raw: '',
        headers: { 'content-type': type },
        from,
      });
      assert.equal(r.status, 201, `${type}: ${r.text}`);
    }
  });

  test('a body that is present but not JSON is 400 invalid_json', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/keys/generate', {
      raw: '{"source":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'invalid_json');
    assert.equal(typeof r.body.message, 'string');
  });

  test('a JSON null, array, number or string body is 400 invalid_request: only an absent body is the anonymous path', async () => {
    const svc = await startService();
    for (const json of [null, [], [{ source: 'docs' }], 0, 42, 'docs']) {
      const r = await svc.call('/v1/keys/generate', { json, from: '127.0.0.4' });
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.equal(r.body.error, 'invalid_request');
      assert.equal(typeof r.body.message, 'string');
    }
    assert.equal(
      (await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.4' })).status,
      201,
      'no key was counted for the network',
    );
  });

  test('the 4th free key from one network in a UTC day is refused, existing keys keep working, other networks are not affected', async () => {
    const svc = await startService();
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(await svc.newKey('127.0.0.5'));
    const fourth = await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.5' });
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.error, 'key_creation_limit');
    for (const key of keys) {
      const usage = await svc.call('/v1/keys/usage', { key, from: '127.0.0.5' });
      assert.equal(usage.status, 200);
      const data = await svc.call('/v1/iban/validate', {
        key,
        json: { iban: 'DE89370400440532013000' },
        from: '127.0.0.5',
      });
      assert.equal(data.status, 200, 'an existing key still serves data calls');
    }
    assert.equal((await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.6' })).status, 201);
    svc.clock.advance(24 * 3600_000);
    assert.equal(
      (await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.5' })).status,
      201,
      'the next UTC day allows keys again',
    );
  });
});

describe('GET /v1/keys/usage', () => {
  test('a fresh anonymous key reports 0 of 25 this month, the claim object, and the quota headers', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/keys/usage', { key });
    assert.equal(r.status, 200);
    assert.deepEqual(
      {
        used: r.body.used,
        limit: r.body.limit,
        remaining: r.body.remaining,
        month: r.body.month,
        basis: r.body.basis,
        tier: r.body.tier,
        key_prefix: r.body.key_prefix,
      },
      {
        used: 0,
        limit: 25,
        remaining: 25,
        month: '2026-11',
        basis: 'monthly',
        tier: 'anonymous',
        key_prefix: key.slice(0, 8),
      },
    );
    assert.deepEqual(r.body.claim, {
      url: `${svc.url}/v1/keys/claim`,
      raises_limit_to: 200,
      first_call_made: false,
      methods: ['email_code'],
      paid_so_far_usd: 0,
      paid_needed_usd: 1,
    });
    assert.equal(r.headers['x-quota-used'], '0');
    assert.equal(r.headers['x-quota-limit'], '25');
    assert.equal(r.headers['x-quota-remaining'], '25');
    assert.equal(r.headers['x-quota-month'], '2026-11');
  });

  test('X-API-Key works the same as Authorization: Bearer', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/keys/usage', { headers: { 'x-api-key': key } });
    assert.equal(r.status, 200);
    assert.equal(r.body.key_prefix, key.slice(0, 8));
  });

  test("without a key it reports the caller network's trial counters for today", async () => {
    const svc = await startService();
    await svc.call('/v1/iban/validate', { json: { iban: 'DE89370400440532013000' }, from: '127.0.0.9' });
    const r = await svc.call('/v1/keys/usage', { from: '127.0.0.9' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { used: 1, limit: 25, remaining: 24, day: '2026-11-21', basis: 'daily', tier: 'trial' });
    assert.equal(r.headers['x-quota-used'], undefined);
  });
});

describe('POST /v1/keys/rotate', () => {
  test('gives a new secret for the same holder; the old one is refused at once and counters carry over', async () => {
    const svc = await startService();
    const oldKey = await svc.newKey();
    for (let i = 0; i < 3; i++)
      await svc.call('/v1/iban/validate', { key: oldKey, json: { iban: 'DE89370400440532013000' } });
    const r = await svc.call('/v1/keys/rotate', { method: 'POST', key: oldKey });
    assert.equal(r.status, 200);
    assert.match(r.body.api_key, /^ifk_[0-9a-f]{64}$/);
    assert.notEqual(r.body.api_key, oldKey);
    assert.equal(r.body.previous_key_prefix, oldKey.slice(0, 8));
    assert.equal(r.body.key_prefix, r.body.api_key.slice(0, 8));
    assert.deepEqual([r.body.tier, r.body.basis, r.body.monthly_limit], ['anonymous', 'monthly', 25]);
    assert.equal(r.headers['x-quota-used'], '3');

    const old = await svc.call('/v1/keys/usage', { key: oldKey });
    assert.equal(old.status, 401);
    assert.equal(old.body.error, 'invalid_api_key');
    const usage = await svc.call('/v1/keys/usage', { key: r.body.api_key });
    assert.equal(usage.body.used, 3, 'rotating never resets or doubles the quota');
  });

  test('two rotations of one key at once: exactly one gets the new secret, the other 401, counters kept', async () => {
    const svc = await startService();
    const oldKey = await svc.newKey();
    for (let i = 0; i < 2; i++)
      await svc.call('/v1/iban/validate', { key: oldKey, json: { iban: 'DE89370400440532013000' } });
    const replies = await Promise.all([1, 2].map(() => svc.call('/v1/keys/rotate', { method: 'POST', key: oldKey })));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 401]);
    const winner = replies.find((r) => r.status === 200)!;
    assert.equal(replies.find((r) => r.status === 401)!.body.error, 'invalid_api_key');
    assert.equal((await svc.call('/v1/keys/usage', { key: oldKey })).status, 401);
    const usage = await svc.call('/v1/keys/usage', { key: winner.body.api_key });
    assert.equal(usage.status, 200);
    assert.equal(usage.body.used, 2);
  });

  test('needs a key: 401 missing_api_key without one', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/keys/rotate', { method: 'POST' });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'missing_api_key');
  });
});
