/**
 * A refused code says how many tries are left (`attempts_left`), counted by the store, so a page
 * or a client shows the server's number instead of keeping a count of its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { address } from '../support/mail/dns.ts';
import { startMailService, usedKey } from '../support/mail/service.ts';

test('a wrong claim code answers attempts_left, counting down to the lock', async () => {
  const { svc, smtp } = await startMailService();
  const from = '127.0.9.1';
  const key = await usedKey(svc, from);
  const email = address('counted');
  const sent = await svc.call('/v1/keys/claim', { key, json: { email }, from });
  assert.equal(sent.status, 202, sent.text);
  const wrong = (await smtp.nextCode(email)) === '000000' ? '111111' : '000000';
  const lefts: number[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await svc.call('/v1/keys/claim', { key, json: { email, code: wrong }, from });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, 'verification_failed');
    lefts.push(r.body.attempts_left);
  }
  assert.deepEqual(lefts, [4, 3, 2, 1, 0, 0]);
});
