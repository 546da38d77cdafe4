import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService } from '../support/mail/service.ts';
import { burst, createKeys, validate } from './burst.ts';

describe('when the creation alert starts', () => {
  test('the 50th anonymous key within 10 minutes is normal and the 51st is already reduced', async () => {
    const svc = await startService();
    const fifty = await createKeys(svc, 50, 20);
    assert.ok(fifty.every((k) => k.body.monthly_limit === 25 && k.body.basis === 'monthly' && !('notice' in k.body)));
    const [fiftyFirst] = await createKeys(svc, 1, 21);
    assert.deepEqual([fiftyFirst!.body.monthly_limit, fiftyFirst!.body.basis], [5, 'lifetime']);
    assert.equal(typeof fiftyFirst!.body.notice, 'string');
  });

  test('51 keys within 9.5 minutes that straddle 11 clock minutes still start the alert', async () => {
    const svc = await startService();
    svc.clock.set('2026-11-21T12:00:45Z');
    // 50 steps of 11.4 s: from 12:00:45 to 12:10:15, touching the minutes 12:00 to 12:10.
    const keys = await createKeys(svc, 51, 22, 11_400);
    assert.equal(keys[49]!.body.monthly_limit, 25);
    assert.equal(keys[50]!.body.monthly_limit, 5);
  });

  test('the window is the last 10 minutes: a key created exactly 10 minutes ago no longer counts', async () => {
    const svc = await startService();
    await createKeys(svc, 1, 23);
    svc.clock.advance(5 * 60_000);
    await createKeys(svc, 49, 24);
    svc.clock.advance(5 * 60_000);
    const [fiftieth] = await createKeys(svc, 1, 25);
    assert.equal(fiftieth!.body.monthly_limit, 25, 'the first key has left the window, so only 50 are in it');
    const [fiftyFirst] = await createKeys(svc, 1, 26);
    assert.equal(fiftyFirst!.body.monthly_limit, 5);
  });

  test('keys created more than 10 minutes apart never add up to an alert', async () => {
    const svc = await startService();
    const keys = await createKeys(svc, 60, 27, 12_001);
    assert.ok(keys.every((k) => k.body.monthly_limit === 25));
  });
});

describe('a key born in the alert', () => {
  test('serves 5 calls over its life; the 6th is 402 quota_exhausted with basis lifetime and no monthly wait', async () => {
    const svc = await startService();
    const { body, from } = await burst(svc, 30);
    for (let i = 1; i <= 5; i++) {
      const r = await validate(svc, body.api_key, from);
      assert.equal(r.status, 200);
      assert.deepEqual([r.headers['x-quota-used'], r.headers['x-quota-limit']], [String(i), '5']);
    }
    const sixth = await validate(svc, body.api_key, from);
    assert.equal(sixth.status, 402);
    assert.equal(sixth.body.error, 'quota_exhausted');
    assert.deepEqual([sixth.body.used, sixth.body.limit, sixth.body.basis], [5, 5, 'lifetime']);
    assert.equal(sixth.headers['x-quota-exhausted'], 'true');
    assert.equal(
      sixth.body.options.some((o: { type: string }) => o.type === 'wait'),
      false,
    );
    assert.ok(sixth.body.options.some((o: { type: string }) => o.type === 'claim'));
  });

  test('generate with the right code during an alert gives an unreduced email key', async () => {
    const { svc, smtp } = await startMailService();
    const from = '127.31.0.1';
    const email = `proved@${MAIL_DOMAINS.deliverable}`;
    await svc.newKey(from);
    const asked = await svc.call('/v1/keys/generate', { json: { email }, from });
    assert.equal(asked.body.error, 'verification_required');
    const code = await smtp.nextCode(email);
    await burst(svc, 32);
    const r = await svc.call('/v1/keys/generate', { json: { email, code }, from });
    assert.equal(r.status, 201);
    assert.deepEqual([r.body.tier, r.body.basis, r.body.monthly_limit, r.body.email], ['email', 'monthly', 200, email]);
    assert.equal('notice' in r.body, false);
    const usage = await svc.call('/v1/keys/usage', { key: r.body.api_key, from });
    assert.deepEqual([usage.body.limit, usage.body.basis], [200, 'monthly']);
  });
});
