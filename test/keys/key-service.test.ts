import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { domain } from '../support/domain.ts';

describe('KeyService', () => {
  test('issues three free keys per network per UTC day, and a fourth is refused without a trace', async () => {
    const { keys, store, clock } = domain();
    for (let i = 0; i < 3; i++) {
      const { key, secret } = await keys.generateAnonymous('10.0.0.1');
      assert.deepEqual([key.tier, key.basis, key.limit], ['anonymous', 'monthly', 25]);
      assert.match(secret, /^ifk_[0-9a-f]{64}$/);
    }
    await assert.rejects(keys.generateAnonymous('10.0.0.1'), { code: 'key_creation_limit' });
    await assert.rejects(keys.checkNetworkAllowance('10.0.0.1'), { code: 'key_creation_limit' });
    const today = { scope: 'keys_per_network' as const, subject: '10.0.0.1', period: '2026-11-21' };
    assert.equal(await store.read(today), 3, 'the refused key took no slot');
    await keys.generateEmail('10.0.0.2', 'hash-of-an-address');
    clock.advance(12 * 3600_000);
    assert.equal((await keys.generateAnonymous('10.0.0.1')).key.tier, 'anonymous', 'a new UTC day, new slots');
  });

  test('authenticates by the secret, which is kept only hashed; rotation swaps the secret and keeps the key', async () => {
    const { keys, store } = domain();
    const { key, secret } = await keys.generateAnonymous('10.0.0.3');
    const row = (await keys.authenticate(secret))!;
    assert.equal(row.id, key.id);
    assert.notEqual(row.keyHash, secret);
    assert.equal(row.keyHash.includes(secret.slice(4)), false);
    assert.equal(await keys.authenticate('ifk_not-a-key'), null);
    assert.equal(await keys.authenticate(`ifk_${'0'.repeat(64)}`), null);

    const rotated = await keys.rotate(row);
    assert.equal(await keys.authenticate(secret), null, 'the old secret stops working');
    assert.equal((await keys.authenticate(rotated.secret))?.id, key.id);
    assert.equal(rotated.prefix, rotated.secret.slice(0, 8));
    await assert.rejects(keys.rotate(row), { code: 'invalid_api_key' }, 'a stale row cannot rotate twice');
    assert.equal((await store.keyById(key.id))?.keyPrefix, rotated.prefix);
  });

  test('a credits key carries its balance as its limit, on basis credits', async () => {
    const { keys } = domain();
    const { key } = await keys.insert({
      tier: 'credits',
      network: 'card',
      emailHash: null,
      alertBorn: false,
      limit: 5000,
      lifetimePeriod: 'credits:test',
    });
    assert.deepEqual(
      [key.tier, key.basis, key.limit, key.lifetimePeriod],
      ['credits', 'credits', 5000, 'credits:test'],
    );
  });
});
