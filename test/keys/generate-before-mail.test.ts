/**
 * Generate with an address refuses a key that could never be issued before it mails a code
 * (the network's 3 free keys a day are covered in test/routes/generate-email.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService } from '../support/mail/service.ts';

test('an address that already got a key today is 429 rate_limited before any code is mailed, even once that key is no longer a free key', async () => {
  const { svc, smtp } = await startMailService();
  const email = `twice@${MAIL_DOMAINS.deliverable}`;
  const first = await svc.call('/v1/keys/generate', { json: { email }, from: '127.0.2.2' });
  assert.equal(first.status, 201);
  // The key moves on to Pro: the address no longer holds a live free key, but got one today.
  await svc.makePro(first.body.api_key);
  await svc.newKey('127.0.2.3');
  for (const json of [{ email }, { email, code: '123456' }]) {
    const again = await svc.call('/v1/keys/generate', { json, from: '127.0.2.3' });
    assert.equal(again.status, 429);
    assert.equal(again.body.error, 'rate_limited');
  }
  assert.equal(smtp.messages.length, 0);
});
