import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { address } from '../support/mail/dns.ts';
import { domainWithMail, startAlert } from '../support/domain.ts';

describe('EmailKeys', () => {
  test('generate: an address from a quiet network gets an email key with 200 a month, held without proof', async () => {
    const { emailKeys, store, clock } = await domainWithMail();
    const email = address('Dev.One');
    const { issued, email: echoed } = await emailKeys.generate('10.2.0.1', email, undefined);
    assert.deepEqual([issued.key.tier, issued.key.basis, issued.key.limit], ['email', 'monthly', 200]);
    assert.equal(echoed, email);
    assert.equal(await store.addressHolder(issued.key.emailHash!), 'unproved');
    // Held without proof, the address is not its holder's to keep: whoever names it is asked
    // for the mailed code (docs/security.md, "Address ownership"), the next day too.
    await assert.rejects(emailKeys.generate('10.2.0.9', email.toLowerCase(), undefined), {
      code: 'verification_required',
    });
    clock.advance(24 * 3600_000);
    await assert.rejects(emailKeys.generate('10.2.0.9', email, undefined), { code: 'verification_required' });
  });

  test('generate: a network with a recent free key must prove the mailbox, during an alert too', async () => {
    const { emailKeys, keys, smtp } = await domainWithMail();
    await keys.generateAnonymous('10.2.0.2');
    await startAlert(keys);
    const email = address('proved');
    await assert.rejects(emailKeys.generate('10.2.0.2', email, undefined), { code: 'verification_required' });
    await assert.rejects(emailKeys.generate('10.2.0.2', email, '000000'), { code: 'verification_failed' });
    const { issued } = await emailKeys.generate('10.2.0.2', email, await smtp.nextCode(email));
    assert.deepEqual([issued.key.tier, issued.key.limit, issued.reduced], ['email', 200, false]);
  });

  test('generate: during an alert, an address from a quiet network gets the reduced anonymous key, unattached', async () => {
    const { emailKeys, keys } = await domainWithMail();
    await startAlert(keys);
    const { issued, email } = await emailKeys.generate('10.2.0.3', address('unproved'), undefined);
    assert.deepEqual(
      [issued.key.tier, issued.reduced, issued.key.emailHash, email],
      ['anonymous', true, null, undefined],
    );
  });

  test('claim: only a used anonymous key, and only with the mailed code, becomes claimed with 200 a month', async () => {
    const { emailKeys, keys, store, smtp, clock } = await domainWithMail();
    const { secret } = await keys.generateAnonymous('10.2.0.4');
    const unused = (await keys.authenticate(secret))!;
    const email = address('claimer');
    await assert.rejects(emailKeys.claim(unused, '10.2.0.4', email, undefined), { code: 'unused_key' });
    await store.markServed(unused.id, clock());
    const key = (await keys.authenticate(secret))!;
    assert.deepEqual(await emailKeys.claim(key, '10.2.0.4', email, undefined), { status: 'code_sent', email });
    const outcome = await emailKeys.claim(key, '10.2.0.4', email, await smtp.nextCode(email));
    assert.equal(outcome.status, 'claimed');
    const claimed = outcome.status === 'claimed' ? outcome.key : null;
    assert.deepEqual([claimed?.tier, claimed?.basis, claimed?.limit], ['claimed', 'monthly', 200]);
    await assert.rejects(emailKeys.claim(claimed!, '10.2.0.4', email, undefined), { code: 'already_claimed' });
  });
});
