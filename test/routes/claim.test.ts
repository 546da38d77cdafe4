import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { address, MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService, usedKey } from '../support/mail/service.ts';

const DAY = 24 * 3600_000;
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

describe('POST /v1/keys/claim', () => {
  test("a used anonymous key is claimed by mailed code: 202 code_sent, then 200 with 200 a month and the month's use carried over", async () => {
    const { svc, smtp } = await startMailService();
    const from = '127.0.3.1';
    const key = await usedKey(svc, from);
    await svc.call('/v1/iban/validate', { key, json: { iban: 'GB82WEST12345698765432' }, from });
    const email = address('owner');
    const sent = await svc.call('/v1/keys/claim', { key, json: { email }, from });
    assert.equal(sent.status, 202);
    assert.deepEqual(
      { ...sent.body, message: typeof sent.body.message },
      { status: 'code_sent', key_prefix: key.slice(0, 8), expires_in_minutes: 15, message: 'string' },
    );
    const mail = await smtp.nextMail(email);
    assert.match(mail.text, new RegExp(`prefix ${key.slice(0, 8)}`));
    assert.ok(!/\d{6}/.test(mail.subject));
    const code = /^(\d{6})$/m.exec(mail.text)![1]!;

    const claimed = await svc.call('/v1/keys/claim', { key, json: { email, code }, from });
    assert.equal(claimed.status, 200);
    assert.deepEqual(claimed.body, {
      claimed: true,
      tier: 'claimed',
      basis: 'monthly',
      key_prefix: key.slice(0, 8),
      monthly_limit: 200,
      limit: 200,
      used: 2,
      remaining: 198,
      month: '2026-11',
    });
    assert.equal(claimed.headers['x-quota-limit'], '200');
    const usage = await svc.call('/v1/keys/usage', { key, from });
    assert.equal(usage.body.tier, 'claimed');
    assert.equal(usage.body.limit, 200);
    assert.equal(usage.body.used, 2);
    assert.equal('claim' in usage.body, false);

    const again = await svc.call('/v1/keys/claim', { key, json: { email }, from });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'already_claimed');
  });

  test('the key goes in a header only, and a key that never served a call is 403 unused_key', async () => {
    const { svc } = await startMailService();
    const missing = await svc.call('/v1/keys/claim', { json: { email: address('a') }, from: '127.0.3.2' });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error, 'missing_api_key');
    const key = await svc.newKey('127.0.3.2');
    const inBody = await svc.call('/v1/keys/claim', { json: { email: address('a'), api_key: key }, from: '127.0.3.2' });
    assert.equal(inBody.body.error, 'key_in_body');
    const unused = await svc.call('/v1/keys/claim', { key, json: { email: address('a') }, from: '127.0.3.2' });
    assert.equal(unused.status, 403);
    assert.equal(unused.body.error, 'unused_key');
  });

  test('the address is checked in order: syntax, throwaway domains, then the mail server', async () => {
    const { svc } = await startMailService();
    const key = await usedKey(svc, '127.0.3.3');
    const cases: Array<[unknown, string]> = [
      [{}, 'invalid_email'],
      [{ email: 'someone at home' }, 'invalid_email'],
      [{ email: 'x@mailinator.com' }, 'disposable_email'],
      [{ email: 'x@example.org' }, 'disposable_email'],
      [{ email: `x@${MAIL_DOMAINS.nullMx}` }, 'undeliverable_email'],
      [{ email: `x@${MAIL_DOMAINS.noMx}` }, 'undeliverable_email'],
      [{ email: `x@${MAIL_DOMAINS.nxdomain}` }, 'undeliverable_email'],
    ];
    for (const [json, error] of cases) {
      const r = await svc.call('/v1/keys/claim', { key, json, from: '127.0.3.3' });
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.equal(r.body.error, error, JSON.stringify(json));
    }
  });

  test('a DNS server that does not answer does not refuse the address, and is logged', async () => {
    const { svc, smtp } = await startMailService();
    const key = await usedKey(svc, '127.0.3.4');
    const email = `x@${MAIL_DOMAINS.silent}`;
    const r = await svc.call('/v1/keys/claim', { key, json: { email }, from: '127.0.3.4' });
    assert.equal(r.status, 202);
    assert.match(await smtp.nextCode(email), /^\d{6}$/);
    assert.ok(svc.logs.some((l) => l.includes(MAIL_DOMAINS.silent) && l.includes('ETIMEOUT')));
  });

  test('with the MX check off, a domain without a mail server is accepted', async () => {
    const { svc } = await startMailService({ env: { MOD97_MX_CHECK: 'off' } });
    const key = await usedKey(svc, '127.0.3.5');
    const r = await svc.call('/v1/keys/claim', { key, json: { email: `x@${MAIL_DOMAINS.nullMx}` }, from: '127.0.3.5' });
    assert.equal(r.status, 202);
  });

  test('every failed code has its reason: wrong_code, expired, no_challenge, and a new code voids the old one', async () => {
    const { svc, smtp } = await startMailService();
    const from = '127.0.3.6';
    const key = await usedKey(svc, from);
    const email = address('reasons');
    const claim = (json: unknown) => svc.call('/v1/keys/claim', { key, json, from });

    assert.equal((await claim({ email, code: '123456' })).body.reason, 'no_challenge');
    await claim({ email });
    const first = await smtp.nextCode(email);
    // what cannot be a mailed code is 400 and uses up none of the 5 tries
    for (const code of ['', '12', 'abcdef', '1234567']) {
      const malformed = await claim({ email, code });
      assert.deepEqual(
        [malformed.status, malformed.body.error, malformed.body.field],
        [400, 'invalid_request', 'code'],
      );
      assert.match(malformed.body.message, /^The code is the 6 digits from the mail; .*It was not counted as a try\.$/);
    }
    const wrong = (await claim({ email, code: otherThan(first) })).body;
    assert.deepEqual([wrong.reason, wrong.attempts_left], ['wrong_code', 4]);
    svc.clock.advance(15 * 60_000 + 1000);
    assert.equal((await claim({ email, code: first })).body.reason, 'expired');

    await claim({ email });
    const older = await smtp.nextCode(email);
    await claim({ email });
    const newer = await smtp.nextCode(email);
    if (older !== newer) assert.equal((await claim({ email, code: older })).body.reason, 'wrong_code');
    const other = await claim({ email: address('somebody-else'), code: newer });
    assert.equal(other.body.reason, 'no_challenge', 'a code is good only for the address it was mailed to');
    const ok = await claim({ email, code: newer });
    assert.equal(ok.status, 200);
  });

  test('20 wrong codes in parallel count 5 at most, the right code is then refused, and a new request starts over', async () => {
    const { svc, smtp } = await startMailService();
    const from = '127.0.3.7';
    const key = await usedKey(svc, from);
    const email = address('guesser');
    await svc.call('/v1/keys/claim', { key, json: { email }, from });
    const code = await smtp.nextCode(email);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const replies = await Promise.all(
      guesses.map((guess) => svc.call('/v1/keys/claim', { key, json: { email, code: guess }, from })),
    );
    assert.ok(replies.every((r) => r.status === 403 && r.body.error === 'verification_failed'));
    assert.equal(replies.filter((r) => r.body.reason === 'wrong_code').length, 5);
    assert.equal(replies.filter((r) => r.body.reason === 'too_many_attempts').length, 15);
    const right = await svc.call('/v1/keys/claim', { key, json: { email, code }, from });
    assert.equal(right.status, 403);
    assert.equal(right.body.reason, 'too_many_attempts');

    await svc.call('/v1/keys/claim', { key, json: { email }, from });
    const fresh = await smtp.nextCode(email);
    assert.equal((await svc.call('/v1/keys/claim', { key, json: { email, code: fresh }, from })).status, 200);
  });

  test('an address that holds a live free key, or claimed another key, is 409 already_claimed_elsewhere', async () => {
    const { svc, smtp } = await startMailService();
    const holder = address('holder');
    // Held with proof (a code): an address held without one can be taken back by its owner.
    await svc.newKey('127.0.3.8');
    assert.equal((await svc.call('/v1/keys/generate', { json: { email: holder }, from: '127.0.3.8' })).status, 403);
    const code = await smtp.nextCode(holder);
    const proved = await svc.call('/v1/keys/generate', { json: { email: holder, code }, from: '127.0.3.8' });
    assert.equal(proved.status, 201);
    const key = await usedKey(svc, '127.0.3.9');
    const held = await svc.call('/v1/keys/claim', { key, json: { email: holder }, from: '127.0.3.9' });
    assert.equal(held.status, 409);
    assert.equal(held.body.error, 'already_claimed_elsewhere');

    const claimer = address('claimer');
    await svc.call('/v1/keys/claim', { key, json: { email: claimer }, from: '127.0.3.9' });
    await svc.call('/v1/keys/claim', {
      key,
      json: { email: claimer, code: await smtp.nextCode(claimer) },
      from: '127.0.3.9',
    });
    const second = await usedKey(svc, '127.0.3.10');
    const twice = await svc.call('/v1/keys/claim', { key: second, json: { email: claimer }, from: '127.0.3.10' });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error, 'already_claimed_elsewhere');
  });

  test('at most 3 keys are claimed from one network per UTC day (429 claim_rate_limited); the key stays as it was', async () => {
    const { svc, smtp } = await startMailService();
    const claimFrom = '127.0.3.20';
    const keys = [];
    for (let i = 0; i < 4; i++) keys.push(await usedKey(svc, `127.0.3.${21 + i}`));
    for (let i = 0; i < 3; i++) {
      const email = address(`member${i}`);
      await svc.call('/v1/keys/claim', { key: keys[i], json: { email }, from: claimFrom });
      const r = await svc.call('/v1/keys/claim', {
        key: keys[i],
        json: { email, code: await smtp.nextCode(email) },
        from: claimFrom,
      });
      assert.equal(r.status, 200);
    }
    const fourth = await svc.call('/v1/keys/claim', {
      key: keys[3],
      json: { email: address('member3') },
      from: claimFrom,
    });
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.error, 'claim_rate_limited');
    assert.equal((await svc.call('/v1/keys/usage', { key: keys[3], from: claimFrom })).body.tier, 'anonymous');
    svc.clock.advance(DAY);
    assert.equal(
      (await svc.call('/v1/keys/claim', { key: keys[3], json: { email: address('member3') }, from: claimFrom })).status,
      202,
    );
  });

  test('a claim mail the server refuses is 503 verification_unavailable and leaves no challenge behind', async () => {
    const { svc, smtp } = await startMailService();
    const key = await usedKey(svc, '127.0.3.11');
    const email = address('bounced');
    smtp.failNext(1, { stage: 'data', code: 554 });
    const r = await svc.call('/v1/keys/claim', { key, json: { email }, from: '127.0.3.11' });
    assert.equal(r.status, 503);
    assert.equal(r.body.error, 'verification_unavailable');
    const after = await svc.call('/v1/keys/claim', { key, json: { email, code: '123456' }, from: '127.0.3.11' });
    assert.equal(after.body.reason, 'no_challenge');
  });
});
