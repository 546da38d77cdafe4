import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService } from '../support/mail/service.ts';
import { burst, quota } from './burst.ts';

// docs/api.md, "Creation alert": an address from a network that got a free key in the last 24
// hours must prove its mailbox, alert or not; only a generate with no way to prove one gets the
// reduced anonymous key.
describe('an address from a network with a recent key, during a creation alert', () => {
  test('is asked for a code (403 verification_required), and the code gives an email key with 200 a month', async () => {
    const { svc, smtp } = await startMailService();
    const from = '127.0.13.1';
    assert.equal((await svc.call('/v1/keys/generate', { method: 'POST', from })).status, 201);
    svc.clock.advance(3600_000);
    await burst(svc, 20);

    const email = `alert-proved@${MAIL_DOMAINS.deliverable}`;
    const asked = await svc.call('/v1/keys/generate', { json: { email }, from });
    assert.equal(asked.status, 403, asked.text);
    assert.equal(asked.body.error, 'verification_required');
    assert.equal(typeof asked.body.message, 'string');

    const proved = await svc.call('/v1/keys/generate', { json: { email, code: await smtp.nextCode(email) }, from });
    assert.equal(proved.status, 201, proved.text);
    assert.equal(proved.body.tier, 'email');
    assert.equal(proved.body.monthly_limit, 200);
    assert.equal(proved.body.email, email);
    assert.equal('notice' in proved.body, false, 'a proved mailbox is never reduced');
    assert.deepEqual(await quota(svc, proved.body.api_key, from), [0, 200, 'monthly']);
  });
});
