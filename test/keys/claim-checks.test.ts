/**
 * Claim rules beyond the happy path: the network's daily claim slots are taken only by a right
 * code, paid keys are already claimed, and DNS trouble does not refuse an address. The
 * parallel test runs on PostgreSQL when MOD97_TEST_POSTGRES_URL is set (where the race showed).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dayOf } from '../../src/clock.ts';
import { address, MAIL_DOMAINS } from '../support/mail/dns.ts';
import { pgUrl, throwawaySchema } from '../support/pg.ts';
import { claimByCode, startMailService, usedKey } from '../support/mail/service.ts';

/** A database of its own: a fresh PostgreSQL schema (dropped afterwards) or SQLite in memory. */
const freshDatabase = (): string | undefined => (pgUrl ? throwawaySchema('mod97_claim').url : undefined);

describe('POST /v1/keys/claim, limits and edge cases', () => {
  test('parallel wrong codes are wrong_code or too_many_attempts, never claim_rate_limited, and a real claim behind the same network still passes', async () => {
    const { svc, smtp } = await startMailService({ databaseUrl: freshDatabase() });
    const nat = '127.50.0.1';
    // One of the network's three claims is already used today; the real claim takes a second.
    await svc.services.store.admit({ scope: 'claims_per_network', subject: nat, period: dayOf(svc.clock()) }, 1, 3);
    const guesser = await usedKey(svc, '127.50.0.2');
    const owner = await usedKey(svc, '127.50.0.3');
    const guessed = address('guessed');
    const owned = address('owned');
    await svc.call('/v1/keys/claim', { key: guesser, json: { email: guessed }, from: nat });
    await svc.call('/v1/keys/claim', { key: owner, json: { email: owned }, from: nat });
    const guesserCode = await smtp.nextCode(guessed);
    const ownerCode = await smtp.nextCode(owned);
    const wrong = Array.from({ length: 20 }, (_, i) =>
      String((Number(guesserCode) + 1 + i) % 1_000_000).padStart(6, '0'),
    );

    const [real, ...guesses] = await Promise.all([
      svc.call('/v1/keys/claim', { key: owner, json: { email: owned, code: ownerCode }, from: nat }),
      ...wrong.map((code) => svc.call('/v1/keys/claim', { key: guesser, json: { email: guessed, code }, from: nat })),
    ]);
    assert.deepEqual([...new Set(guesses.map((r) => `${r.status} ${r.body.reason ?? r.body.error}`))].sort(), [
      '403 too_many_attempts',
      '403 wrong_code',
    ]);
    assert.equal(guesses.filter((r) => r.body.reason === 'wrong_code').length, 5);
    assert.equal(real.status, 200, real.text);
    assert.equal(real.body.tier, 'claimed');
  });

  test("when the network's last claim slot is gone, even the right code is 429 claim_rate_limited and the key stays anonymous", async () => {
    const { svc, smtp } = await startMailService();
    const nat = '127.50.1.1';
    const key = await usedKey(svc, '127.50.1.2');
    const email = address('late');
    await svc.call('/v1/keys/claim', { key, json: { email }, from: nat });
    const code = await smtp.nextCode(email);
    await svc.services.store.admit({ scope: 'claims_per_network', subject: nat, period: dayOf(svc.clock()) }, 3, 3);
    const r = await svc.call('/v1/keys/claim', { key, json: { email, code }, from: nat });
    assert.equal(r.status, 429);
    assert.equal(r.body.error, 'claim_rate_limited');
    const usage = await svc.call('/v1/keys/usage', { key, from: nat });
    assert.deepEqual([usage.body.tier, usage.body.limit], ['anonymous', 25]);
  });

  test('pro and credits keys are 409 already_claimed, with or without a code', async () => {
    const { svc } = await startMailService();
    const pro = await svc.services.keys.insert({
      tier: 'pro',
      network: '127.50.2.1',
      emailHash: null,
      alertBorn: false,
    });
    const credits = await svc.services.keys.insert({
      tier: 'credits',
      network: '127.50.2.1',
      emailHash: null,
      alertBorn: false,
      limit: 1000,
      lifetimePeriod: 'credits:claim-test',
    });
    for (const { secret } of [pro, credits]) {
      for (const json of [{ email: address('paid') }, { email: address('paid'), code: '123456' }]) {
        const r = await svc.call('/v1/keys/claim', { key: secret, json, from: '127.50.2.1' });
        assert.equal(r.status, 409, r.text);
        assert.equal(r.body.error, 'already_claimed');
      }
    }
  });

  test('a DNS server failing (SERVFAIL) or not answering does not refuse a claim', async () => {
    const { svc, smtp } = await startMailService();
    for (const [i, domain] of [MAIL_DOMAINS.servfail, MAIL_DOMAINS.silent].entries()) {
      const from = `127.50.3.${i + 1}`;
      const key = await usedKey(svc, from);
      const email = `owner@${domain}`;
      const { sent, claimed: r } = await claimByCode({ svc, smtp }, key, email, from);
      assert.equal(sent.status, 202, domain);
      assert.equal(r.status, 200, domain);
      assert.equal(r.body.tier, 'claimed');
    }
    assert.ok(svc.logs.some((l) => l.includes(MAIL_DOMAINS.servfail) && l.includes('ESERVFAIL')));
  });
});
