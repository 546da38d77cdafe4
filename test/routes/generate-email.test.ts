import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { address, MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService } from '../support/mail/service.ts';

const DAY = 24 * 3600_000;
const generate = (json: unknown, from: string) => ({ json, from });

describe('POST /v1/keys/generate with an address', () => {
  test('a network with no recent key gets an email key of 200 a month at once, with the address echoed', async () => {
    const { svc, smtp } = await startMailService();
    const r = await svc.call(
      '/v1/keys/generate',
      generate({ email: ` Dev.Team@${MAIL_DOMAINS.deliverable.toUpperCase()}`, source: 'docs' }, '127.0.1.1'),
    );
    assert.equal(r.status, 201);
    assert.equal(r.body.tier, 'email');
    assert.equal(r.body.basis, 'monthly');
    assert.equal(r.body.monthly_limit, 200);
    assert.equal(r.body.email, `Dev.Team@${MAIL_DOMAINS.deliverable}`);
    assert.equal('claim_url' in r.body, false);
    assert.equal(smtp.messages.length, 0, 'no mail is needed');
    const usage = await svc.call('/v1/keys/usage', { key: r.body.api_key, from: '127.0.1.1' });
    assert.equal(usage.body.tier, 'email');
    assert.equal(usage.body.limit, 200);
    assert.equal('claim' in usage.body, false);
    const claim = await svc.call('/v1/keys/claim', {
      key: r.body.api_key,
      json: { email: address('other') },
      from: '127.0.1.1',
    });
    assert.equal(claim.status, 409);
    assert.equal(claim.body.error, 'already_claimed');
  });

  test('a malformed, throwaway or placeholder address is refused; the mail server is not looked up on generate', async () => {
    const { svc, dns } = await startMailService();
    const cases: Array<[unknown, string]> = [
      [{ email: 'not-an-address' }, 'invalid_email'],
      [{ email: 'a@b' }, 'invalid_email'],
      [{ code: '123456' }, 'invalid_email'],
      [{ email: 'x@mailinator.com' }, 'disposable_email'],
      [{ email: 'x@inbox.mailinator.com' }, 'disposable_email'],
      [{ email: 'x@example.com' }, 'disposable_email'],
      [{ email: 'x@example.co.uk' }, 'disposable_email'],
      [{ email: 'x@shop.test' }, 'disposable_email'],
    ];
    for (const [json, error] of cases) {
      const r = await svc.call('/v1/keys/generate', generate(json, '127.0.1.2'));
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.equal(r.body.error, error, JSON.stringify(json));
    }
    const asked = dns.queries.length;
    const r = await svc.call('/v1/keys/generate', generate({ email: `x@${MAIL_DOMAINS.nullMx}` }, '127.0.1.2'));
    assert.equal(r.status, 201);
    assert.equal(dns.queries.length, asked);
  });

  test('after a key from the same network, a code is mailed (403 verification_required) and the right code gives the key', async () => {
    const { svc, smtp } = await startMailService();
    await svc.newKey('127.0.1.3');
    const email = address('second');
    const challenge = await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.3'));
    assert.equal(challenge.status, 403);
    assert.equal(challenge.body.error, 'verification_required');
    const mail = await smtp.nextMail(email);
    assert.match(mail.text, /email tier/);
    const code = /^(\d{6})$/m.exec(mail.text)![1]!;
    const wrong = await svc.call(
      '/v1/keys/generate',
      generate({ email, code: code === '000000' ? '111111' : '000000' }, '127.0.1.3'),
    );
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.error, 'verification_failed');
    assert.equal(wrong.body.reason, 'wrong_code');
    const ok = await svc.call('/v1/keys/generate', generate({ email, code }, '127.0.1.3'));
    assert.equal(ok.status, 201);
    assert.equal(ok.body.tier, 'email');
    assert.equal(ok.body.email, email);
  });

  test('a network key older than 24 hours needs no code', async () => {
    const { svc, smtp } = await startMailService();
    await svc.newKey('127.0.1.4');
    svc.clock.advance(DAY + 1000);
    const r = await svc.call('/v1/keys/generate', generate({ email: address('later') }, '127.0.1.4'));
    assert.equal(r.status, 201);
    assert.equal(smtp.messages.length, 0);
  });

  test('a code sent with no pending challenge is no_challenge, and a code after 15 minutes is expired', async () => {
    const { svc, smtp } = await startMailService();
    const email = address('slow');
    const none = await svc.call('/v1/keys/generate', generate({ email, code: '123456' }, '127.0.1.5'));
    assert.equal(none.status, 403);
    assert.equal(none.body.reason, 'no_challenge');
    await svc.newKey('127.0.1.5');
    assert.equal((await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.5'))).status, 403);
    const code = await smtp.nextCode(email);
    svc.clock.advance(15 * 60_000 + 1000);
    const late = await svc.call('/v1/keys/generate', generate({ email, code }, '127.0.1.5'));
    assert.equal(late.status, 403);
    assert.equal(late.body.reason, 'expired');
  });

  test('a second key for the address the same UTC day is 429 rate_limited; on a later day, while the key lives, 409 already_claimed_elsewhere', async () => {
    const { svc, smtp } = await startMailService();
    const email = address('once');
    // Held with proof (a code): an address held without one can be taken back by its owner.
    await svc.newKey('127.0.1.6');
    assert.equal((await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.6'))).status, 403);
    const code = await smtp.nextCode(email);
    assert.equal((await svc.call('/v1/keys/generate', generate({ email, code }, '127.0.1.6'))).status, 201);
    const again = await svc.call(
      '/v1/keys/generate',
      generate({ email: email.toUpperCase().replace(/@.*/, `@${MAIL_DOMAINS.deliverable}`) }, '127.0.1.7'),
    );
    assert.equal(again.status, 429);
    assert.equal(again.body.error, 'rate_limited');
    svc.clock.advance(DAY);
    const later = await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.8'));
    assert.equal(later.status, 409);
    assert.equal(later.body.error, 'already_claimed_elsewhere');
  });

  test('at most 5 codes are mailed to one address per UTC day (429 verification_rate_limited), and more the next day', async () => {
    const { svc, smtp } = await startMailService();
    const email = address('impatient');
    await svc.newKey('127.0.1.9');
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.9'))).body.error,
        'verification_required',
      );
    }
    const sixth = await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.9'));
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.error, 'verification_rate_limited');
    assert.equal(smtp.messages.filter((m) => m.to.includes(email)).length, 5);
    svc.clock.advance(DAY);
    await svc.newKey('127.0.1.9');
    assert.equal(
      (await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.9'))).body.error,
      'verification_required',
    );
  });

  test('a mail the server refuses is 503 verification_unavailable, and the address still has its 5 codes for the day', async () => {
    const { svc, smtp } = await startMailService();
    const email = address('unlucky');
    await svc.newKey('127.0.1.10');
    smtp.failNext(1, { stage: 'rcpt', code: 451 });
    const failed = await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.10'));
    assert.equal(failed.status, 503);
    assert.equal(failed.body.error, 'verification_unavailable');
    const leftover = await svc.call('/v1/keys/generate', generate({ email, code: '123456' }, '127.0.1.10'));
    assert.equal(leftover.body.reason, 'no_challenge', 'the failed mail leaves no challenge behind');
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.10'))).status,
        403,
        `code ${i + 1} of 5`,
      );
    }
    assert.equal((await svc.call('/v1/keys/generate', generate({ email }, '127.0.1.10'))).status, 429);
  });

  test('an email key counts against the 3 free keys a network may create per day: the 4th is 429 key_creation_limit before any code is mailed', async () => {
    const { svc, smtp } = await startMailService();
    for (let i = 0; i < 3; i++) await svc.newKey('127.0.2.1');
    const email = address('fourth');
    for (const json of [{ email }, { email, code: '123456' }]) {
      const fourth = await svc.call('/v1/keys/generate', generate(json, '127.0.2.1'));
      assert.equal(fourth.status, 429);
      assert.equal(fourth.body.error, 'key_creation_limit');
    }
    assert.equal(smtp.messages.length, 0, 'no code mailed for a key that cannot be issued');
    await svc.newKey('127.0.2.4');
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await svc.call('/v1/keys/generate', generate({ email }, '127.0.2.4'))).status,
        403,
        `the address still has code ${i + 1} of 5 today`,
      );
    }
  });
});
