import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { claimByCode, startMailService } from '../support/mail/service.ts';
import { burst, createKeys, HOUR, PAST_ALERT, quota, validate } from './burst.ts';

describe('the end of a creation alert', () => {
  test('a later, unrelated alert does not reduce a key born in an earlier one', async () => {
    const svc = await startService();
    const old = await burst(svc, 40);
    svc.clock.advance(PAST_ALERT);
    assert.deepEqual(await quota(svc, old.body.api_key, old.from), [0, 25, 'monthly']);
    const fresh = await burst(svc, 41);
    assert.deepEqual(
      await quota(svc, fresh.body.api_key, fresh.from),
      [0, 5, 'lifetime'],
      'the new alert reduces its own keys',
    );
    assert.deepEqual(
      await quota(svc, old.body.api_key, old.from),
      [0, 25, 'monthly'],
      'but not the keys of the one before',
    );
  });

  test('a burst during an alert extends that same alert: its keys stay reduced until 3 hours after the last burst', async () => {
    const svc = await startService();
    const first = await burst(svc, 42);
    svc.clock.advance(2 * HOUR);
    await createKeys(svc, 51, 43);
    svc.clock.advance(HOUR + 60_000);
    assert.deepEqual(
      await quota(svc, first.body.api_key, first.from),
      [0, 5, 'lifetime'],
      '3 hours after the first burst, 1 after the second',
    );
    svc.clock.advance(2 * HOUR);
    assert.deepEqual(await quota(svc, first.body.api_key, first.from), [0, 25, 'monthly']);
  });

  test('calls made during the alert count in that month: afterwards the key has 25 minus them left', async () => {
    const svc = await startService();
    const { body, from } = await burst(svc, 44);
    for (let i = 0; i < 5; i++) assert.equal((await validate(svc, body.api_key, from)).status, 200);
    assert.equal((await validate(svc, body.api_key, from)).status, 402);
    svc.clock.advance(PAST_ALERT);
    assert.deepEqual(await quota(svc, body.api_key, from), [5, 25, 'monthly']);
    for (let i = 0; i < 20; i++)
      assert.equal((await validate(svc, body.api_key, from)).status, 200, `call ${6 + i} of 25`);
    const over = await validate(svc, body.api_key, from);
    assert.equal(over.status, 402);
    assert.deepEqual([over.body.used, over.body.limit, over.body.basis], [25, 25, 'monthly']);
  });

  test('a claim after use during the alert carries that use over in the claim body', async () => {
    const { svc, smtp } = await startMailService();
    const { body, from } = await burst(svc, 45);
    for (let i = 0; i < 3; i++) await validate(svc, body.api_key, from);
    const email = `carried@${MAIL_DOMAINS.deliverable}`;
    const { sent, claimed } = await claimByCode({ svc, smtp }, body.api_key, email, from);
    assert.equal(sent.status, 202);
    assert.equal(claimed.status, 200);
    assert.deepEqual(
      [claimed.body.used, claimed.body.limit, claimed.body.remaining, claimed.body.basis],
      [3, 200, 197, 'monthly'],
    );
  });

  test("the reduced cap is over the key's life: the 1st of the month recharges nothing while the alert lasts", async () => {
    const svc = await startService();
    svc.clock.set('2026-11-30T23:00:00Z');
    const { body, from } = await burst(svc, 46);
    for (let i = 0; i < 5; i++) assert.equal((await validate(svc, body.api_key, from)).status, 200);
    svc.clock.set('2026-12-01T00:30:00Z');
    const refused = await validate(svc, body.api_key, from);
    assert.equal(refused.status, 402);
    assert.deepEqual([refused.body.used, refused.body.limit, refused.headers['x-quota-month']], [5, 5, '2026-12']);
    svc.clock.set('2026-12-01T02:01:00Z');
    assert.deepEqual(
      await quota(svc, body.api_key, from),
      [0, 25, 'monthly'],
      'after the alert: December, with its own 25',
    );
  });

  test('a refused call of a reduced key is refunded from both its counters', async () => {
    const svc = await startService();
    const { body, from } = await burst(svc, 47);
    assert.equal((await validate(svc, body.api_key, from)).status, 200);
    const bad = await validate(svc, body.api_key, from, { not_iban: 1 });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers['x-quota-used'], '1');
    const missing = await svc.call('/v1/bic/ZZZZDEFF', { key: body.api_key, from });
    assert.equal(missing.status, 404);
    assert.deepEqual(await quota(svc, body.api_key, from), [1, 5, 'lifetime']);
    svc.clock.advance(PAST_ALERT);
    assert.deepEqual(await quota(svc, body.api_key, from), [1, 25, 'monthly'], 'the month counter was given back too');
  });
});
