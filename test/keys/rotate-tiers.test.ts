import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { claimByCode, startMailService, usedKey } from '../support/mail/service.ts';
import { burst, PAST_ALERT, quota, validate } from './burst.ts';

describe('POST /v1/keys/rotate keeps the plan of every free tier', () => {
  test("an email key: the new secret has tier email, basis monthly, 200, and the month's use", async () => {
    const { svc } = await startMailService();
    const from = '127.70.0.1';
    const created = await svc.call('/v1/keys/generate', {
      json: { email: `rotator@${MAIL_DOMAINS.deliverable}` },
      from,
    });
    const old = created.body.api_key as string;
    for (let i = 0; i < 2; i++) await validate(svc, old, from);
    const r = await svc.call('/v1/keys/rotate', { method: 'POST', key: old, from });
    assert.deepEqual([r.body.tier, r.body.basis, r.body.monthly_limit], ['email', 'monthly', 200]);
    assert.deepEqual(await quota(svc, r.body.api_key, from), [2, 200, 'monthly']);
    assert.equal((await svc.call('/v1/keys/usage', { key: old, from })).status, 401);
  });

  test("a key claimed by code: tier claimed, basis monthly, 200, and the month's use", async () => {
    const { svc, smtp } = await startMailService();
    const from = '127.70.0.2';
    const key = await usedKey(svc, from);
    const email = `rotated-claim@${MAIL_DOMAINS.deliverable}`;
    const { claimed } = await claimByCode({ svc, smtp }, key, email, from);
    assert.equal(claimed.status, 200);
    await validate(svc, key, from);
    const r = await svc.call('/v1/keys/rotate', { method: 'POST', key, from });
    assert.deepEqual([r.body.tier, r.body.basis, r.body.monthly_limit], ['claimed', 'monthly', 200]);
    assert.deepEqual(await quota(svc, r.body.api_key, from), [2, 200, 'monthly']);
  });

  test('a key reduced by an alert: still 5 over its life with its use, and 25 a month with that use once the alert is over', async () => {
    const { svc } = await startMailService();
    const { body, from } = await burst(svc, 71);
    for (let i = 0; i < 2; i++) await validate(svc, body.api_key, from);
    const r = await svc.call('/v1/keys/rotate', { method: 'POST', key: body.api_key, from });
    assert.deepEqual([r.body.tier, r.body.basis, r.body.monthly_limit], ['anonymous', 'lifetime', 5]);
    const fresh = r.body.api_key as string;
    assert.deepEqual(await quota(svc, fresh, from), [2, 5, 'lifetime']);
    for (let i = 0; i < 3; i++) assert.equal((await validate(svc, fresh, from)).status, 200);
    assert.equal((await validate(svc, fresh, from)).status, 402, 'the rotation gave no new calls');
    svc.clock.advance(PAST_ALERT);
    assert.deepEqual(await quota(svc, fresh, from), [5, 25, 'monthly']);
  });
});
