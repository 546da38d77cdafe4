/** Store contract for mailbox verification (MailboxStore), run inside storeContract for every engine. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Challenge, Store } from '../../src/store/types.ts';
import { newKeyRow } from './contract.ts';

export function mailboxContract(current: () => Store): void {
  const challenge = (overrides: Partial<Challenge> = {}): Challenge => ({
    purpose: 'claim',
    subject: randomUUID(),
    emailHash: `mail-${randomUUID()}`,
    codeHash: 'right',
    createdAt: 1000,
    expiresAt: 901_000,
    ...overrides,
  });

  test('the right code is accepted once; a second use finds no challenge', async () => {
    const store = current();
    const c = challenge();
    await store.putChallenge(c);
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'right', 2000, 5), 'ok');
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'right', 2000, 5), 'no_challenge');
  });

  test('20 parallel wrong codes count 5 attempts at most, and the right code is then refused', async () => {
    const store = current();
    const c = challenge();
    await store.putChallenge(c);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.tryCode(c.purpose, c.subject, c.emailHash, `wrong-${i}`, 2000, 5)),
    );
    assert.equal(results.filter((r) => r === 'wrong_code').length, 5);
    assert.equal(results.filter((r) => r === 'too_many_attempts').length, 15);
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'right', 2000, 5), 'too_many_attempts');
  });

  test('a new challenge voids the old code and starts the attempts again', async () => {
    const store = current();
    const c = challenge();
    await store.putChallenge(c);
    for (let i = 0; i < 5; i++) await store.tryCode(c.purpose, c.subject, c.emailHash, 'wrong', 2000, 5);
    await store.putChallenge({ ...c, codeHash: 'newer', createdAt: 3000, expiresAt: 903_000 });
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'right', 4000, 5), 'wrong_code');
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'newer', 4000, 5), 'ok');
  });

  test('a code is expired after its time, for another address there is no challenge, and a drop removes only its own challenge', async () => {
    const store = current();
    const c = challenge();
    await store.putChallenge(c);
    assert.equal(await store.tryCode(c.purpose, c.subject, 'someone-else', 'right', 2000, 5), 'no_challenge');
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'right', 901_000, 5), 'expired');
    await store.dropChallenge(c.purpose, c.subject, 'not-this-one');
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'wrong', 2000, 5), 'wrong_code');
    await store.dropChallenge(c.purpose, c.subject, 'right');
    assert.equal(await store.tryCode(c.purpose, c.subject, c.emailHash, 'right', 2000, 5), 'no_challenge');
  });

  test('free keys are found by network and age, and by address while live', async () => {
    const store = current();
    const network = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const emailHash = `mail-${randomUUID()}`;
    assert.equal(await store.freeKeyFromNetworkSince(network, 0), false);
    await store.insertKey(newKeyRow({ network, createdAt: 5000 }));
    assert.equal(await store.freeKeyFromNetworkSince(network, 5000), true);
    assert.equal(await store.freeKeyFromNetworkSince(network, 5001), false);
    assert.equal(await store.liveFreeKeyForEmail(emailHash), false);
    await store.insertKey(newKeyRow({ tier: 'email', limit: 200, emailHash }));
    assert.equal(await store.liveFreeKeyForEmail(emailHash), true);
  });

  test('the last time an address was given a key is remembered', async () => {
    const store = current();
    const emailHash = `mail-${randomUUID()}`;
    assert.equal(await store.lastEmailBinding(emailHash), null);
    await store.bindEmail(emailHash, 'key-1', 100);
    await store.bindEmail(emailHash, 'key-2', 300);
    await store.bindEmail(emailHash, 'key-1', 200);
    assert.equal(await store.lastEmailBinding(emailHash), 300);
  });
}
