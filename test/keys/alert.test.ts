import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startService, testClock, type TestService } from '../support/app.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { claimByCode, startMailService } from '../support/mail/service.ts';

/** 51 anonymous keys from 17 networks (3 each, the per-network cap): the 51st starts the alert. */
async function burst(svc: TestService): Promise<{ normal: string; reduced: Record<string, any> }> {
  let last: Record<string, any> = {};
  let first = '';
  for (let n = 1; n <= 17; n++) {
    for (let i = 0; i < 3; i++) {
      const r = await svc.call('/v1/keys/generate', { method: 'POST', from: `127.0.10.${n}` });
      assert.equal(r.status, 201);
      first ||= r.body.api_key;
      last = r.body;
    }
  }
  return { normal: first, reduced: last };
}

describe('the creation alert', () => {
  test('over 50 anonymous keys in 10 minutes: new keys start reduced (5, lifetime) with a notice, and become 25 a month when the alert is over', async () => {
    const { svc, smtp } = await startMailService();
    const { normal, reduced } = await burst(svc);
    assert.equal(reduced.monthly_limit, 5);
    assert.equal(reduced.basis, 'lifetime');
    assert.match(reduced.notice, /claim/i);
    const usage = await svc.call('/v1/keys/usage', { key: reduced.api_key, from: '127.0.10.17' });
    assert.deepEqual([usage.body.limit, usage.body.basis], [5, 'lifetime']);
    const before = await svc.call('/v1/keys/usage', { key: normal, from: '127.0.10.1' });
    assert.deepEqual(
      [before.body.limit, before.body.basis],
      [25, 'monthly'],
      'keys born before the alert keep their cap',
    );

    // An address without a proved mailbox does not lift the reduction, and is not attached.
    const withEmail = await svc.call('/v1/keys/generate', {
      json: { email: `burst@${MAIL_DOMAINS.deliverable}` },
      from: '127.0.11.1',
    });
    assert.equal(withEmail.status, 201);
    assert.equal(withEmail.body.tier, 'anonymous');
    assert.equal(withEmail.body.monthly_limit, 5);
    assert.equal('email' in withEmail.body, false);
    assert.equal(typeof withEmail.body.notice, 'string');
    assert.equal(smtp.messages.length, 0);

    svc.clock.advance(3 * 3600_000 + 60_000);
    const afterAlert = await svc.call('/v1/keys/usage', { key: reduced.api_key, from: '127.0.10.17' });
    assert.deepEqual([afterAlert.body.limit, afterAlert.body.basis], [25, 'monthly']);
    const fresh = await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.11.2' });
    assert.equal(fresh.body.monthly_limit, 25);
    assert.equal('notice' in fresh.body, false);
  });

  test('a claim by mailed code works during an alert and lifts the reduction for good', async () => {
    const { svc, smtp } = await startMailService();
    const { reduced } = await burst(svc);
    const key = reduced.api_key as string;
    const from = '127.0.10.17';
    await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' }, from });
    const email = `rescued@${MAIL_DOMAINS.deliverable}`;
    const { sent, claimed } = await claimByCode({ svc, smtp }, key, email, from);
    assert.equal(sent.status, 202);
    assert.equal(claimed.status, 200);
    assert.deepEqual([claimed.body.tier, claimed.body.basis, claimed.body.limit], ['claimed', 'monthly', 200]);
    const usage = await svc.call('/v1/keys/usage', { key, from });
    assert.deepEqual([usage.body.limit, usage.body.basis], [200, 'monthly']);
  });

  test('the alert survives a restart on the same database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mod97-alert-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = `sqlite:${join(dir, 'mod97.db')}`;
    const clock = testClock();
    const first = await startService({ databaseUrl, clock });
    const { reduced } = await burst(first);
    await first.close();

    clock.advance(60 * 60_000);
    const second = await startService({ databaseUrl, clock });
    const usage = await second.call('/v1/keys/usage', { key: reduced.api_key, from: '127.0.10.17' });
    assert.deepEqual([usage.body.limit, usage.body.basis], [5, 'lifetime']);
    const born = await second.call('/v1/keys/generate', { method: 'POST', from: '127.0.12.1' });
    assert.equal(born.body.monthly_limit, 5, 'an hour later, after a restart, the alert still holds');
  });
});
