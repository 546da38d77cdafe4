/** Store contract for mailbox verification (MailboxStore), run inside storeContract for every engine. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Challenge, CounterRef, Store } from '../../src/store/types.ts';
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

  test('a wrong code tells how many attempts were counted, one by one', async () => {
    const store = current();
    const c = challenge();
    await store.putChallenge(c);
    const counted: number[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await store.tryCode(c.purpose, c.subject, c.emailHash, 'wrong', 2000, 5, (n) => counted.push(n));
      assert.equal(result, 'wrong_code');
    }
    assert.deepEqual(counted, [1, 2, 3]);
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
    assert.equal(await store.addressHolder(emailHash), null);
    const key = newKeyRow({ tier: 'email', limit: 200, emailHash });
    await store.insertKey(key);
    await store.bindEmail(emailHash, key.id, 100, false);
    assert.equal(await store.addressHolder(emailHash), 'unproved');
    await store.bindEmail(emailHash, key.id, 100, true);
    assert.equal(await store.addressHolder(emailHash), 'proved');
    await store.revokeKey(key.id, 200);
    assert.equal(await store.addressHolder(emailHash), null);
  });

  test('an address held without proof is released: the key drops to the plan given, keeps its id, loses the address', async () => {
    const store = current();
    const emailHash = `mail-${randomUUID()}`;
    const squatter = newKeyRow({ tier: 'email', limit: 200, emailHash, createdAt: 1234 });
    await store.insertKey(squatter);
    await store.bindEmail(emailHash, squatter.id, 1234, false);
    const counter: CounterRef = { scope: 'key', subject: squatter.id, period: '2026-11' };
    assert.equal(await store.admit(counter, 7, 200), 7);
    const released = await store.releaseUnproved(emailHash, { tier: 'anonymous', basis: 'monthly', limit: 25 });
    assert.deepEqual(released, [{ id: squatter.id, createdAt: 1234 }]);
    const after = await store.keyById(squatter.id);
    assert.equal(after?.tier, 'anonymous');
    assert.equal(after?.limit, 25);
    assert.equal(after?.emailHash, null);
    assert.equal(after?.planRev, 1);
    assert.equal((await store.keyByHash(squatter.keyHash))?.tier, 'anonymous', 'no stale cached key');
    assert.equal(await store.read(counter), 7, 'counters kept');
    assert.equal(await store.addressHolder(emailHash), null);
    assert.equal(await store.lastEmailBinding(emailHash), null, 'the unproved binding is forgotten');
    assert.deepEqual(await store.releaseUnproved(emailHash, { tier: 'anonymous', basis: 'monthly', limit: 25 }), []);

    const owner = newKeyRow({ tier: 'email', limit: 200, emailHash });
    await store.insertKey(owner);
    await store.bindEmail(emailHash, owner.id, 2000, true);
    assert.deepEqual(await store.releaseUnproved(emailHash, { tier: 'anonymous', basis: 'monthly', limit: 25 }), []);
    assert.equal((await store.keyById(owner.id))?.tier, 'email', 'a proved key is never released');
  });

  test('the last time an address was given a key is remembered', async () => {
    const store = current();
    const emailHash = `mail-${randomUUID()}`;
    assert.equal(await store.lastEmailBinding(emailHash), null);
    await store.bindEmail(emailHash, 'key-1', 100, true);
    await store.bindEmail(emailHash, 'key-2', 300, true);
    await store.bindEmail(emailHash, 'key-1', 200, true);
    assert.equal(await store.lastEmailBinding(emailHash), 300);
  });
}
