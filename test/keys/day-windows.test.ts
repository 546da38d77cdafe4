/**
 * docs/api.md, "Conventions": every "per day" limit counts per UTC calendar day, while "recently
 * issued" and "one claim per 24 hours" are rolling 24 hours. The clock crosses midnight
 * (23:59 -> 00:01) and then moves on to 23 hours after the event.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { address } from '../support/mail/dns.ts';
import { claimByCode, startMailService, usedKey } from '../support/mail/service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('per-UTC-day limits reset at midnight', () => {
  test("a network's 3 free keys: the 4th at 23:59 is 429 key_creation_limit, two minutes later it is issued", async () => {
    const { svc } = await startMailService();
    svc.clock.set('2026-11-21T23:59:00Z');
    const from = '127.60.0.1';
    for (let i = 0; i < 3; i++) await svc.newKey(from);
    const fourth = await svc.call('/v1/keys/generate', { method: 'POST', from });
    assert.deepEqual([fourth.status, fourth.body.error], [429, 'key_creation_limit']);
    svc.clock.advance(2 * MINUTE);
    assert.equal((await svc.call('/v1/keys/generate', { method: 'POST', from })).status, 201);
  });

  test("an address's 5 codes: the 6th at 23:59 is 429 verification_rate_limited, at 00:01 a code is mailed again", async () => {
    const { svc, smtp } = await startMailService();
    svc.clock.set('2026-11-21T23:59:00Z');
    const from = '127.60.0.2';
    const email = address('midnight');
    await svc.newKey(from);
    for (let i = 0; i < 5; i++) await svc.call('/v1/keys/generate', { json: { email }, from });
    const sixth = await svc.call('/v1/keys/generate', { json: { email }, from });
    assert.deepEqual([sixth.status, sixth.body.error], [429, 'verification_rate_limited']);
    svc.clock.advance(2 * MINUTE);
    const next = await svc.call('/v1/keys/generate', { json: { email }, from });
    assert.deepEqual([next.status, next.body.error], [403, 'verification_required']);
    assert.equal(smtp.messages.filter((m) => m.to.includes(email.toLowerCase())).length, 6);
  });
});

describe('rolling 24-hour rules hold across midnight', () => {
  test('a key issued at 23:59 is still "recent" at 00:01 and 23 hours later: the address path needs a code until 24 hours have passed', async () => {
    const { svc, smtp } = await startMailService();
    svc.clock.set('2026-11-21T23:59:00Z');
    const from = '127.60.0.3';
    await svc.newKey(from);
    svc.clock.advance(2 * MINUTE);
    const past = await svc.call('/v1/keys/generate', { json: { email: address('after-midnight') }, from });
    assert.deepEqual([past.status, past.body.error], [403, 'verification_required']);
    svc.clock.set('2026-11-22T22:59:00Z');
    const later = await svc.call('/v1/keys/generate', { json: { email: address('next-evening') }, from });
    assert.deepEqual([later.status, later.body.error], [403, 'verification_required']);
    svc.clock.set('2026-11-22T23:59:01Z');
    const free = await svc.call('/v1/keys/generate', { json: { email: address('a-day-later') }, from });
    assert.deepEqual([free.status, free.body.tier], [201, 'email']);
    assert.equal(smtp.messages.length, 2);
  });

  test('one claim per address per 24 hours: after a claim at 23:59 the address is refused at 00:01 and at +23 h, even once it holds no live free key', async () => {
    const { svc, smtp } = await startMailService();
    svc.clock.set('2026-11-21T23:59:00Z');
    const email = address('claimer');
    const first = await usedKey(svc, '127.60.0.4');
    const { claimed } = await claimByCode({ svc, smtp }, first, email, '127.60.0.4');
    assert.equal(claimed.status, 200);
    // The claimed key moves on to Pro: the address no longer holds a live free key.
    await svc.makePro(first);

    svc.clock.advance(2 * MINUTE);
    const second = await usedKey(svc, '127.60.0.5');
    const claim = () => svc.call('/v1/keys/claim', { key: second, json: { email }, from: '127.60.0.5' });
    const afterMidnight = await claim();
    assert.deepEqual([afterMidnight.status, afterMidnight.body.error], [409, 'already_claimed_elsewhere']);
    svc.clock.set('2026-11-22T22:59:00Z');
    const at23h = await claim();
    assert.deepEqual([at23h.status, at23h.body.error], [409, 'already_claimed_elsewhere']);
    svc.clock.advance(HOUR + MINUTE);
    assert.equal((await claim()).status, 202, 'more than 24 hours after the claim');
  });
});
