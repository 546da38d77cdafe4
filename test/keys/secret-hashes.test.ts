import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX, PERIOD_MS, SecretHashes } from '../../src/keys/secret-hashes.ts';
import { keyedHash } from '../../src/keys/secret.ts';

/** A cache over a counting hash, on a clock the test moves. */
function counted() {
  let now = 0;
  const computed: string[] = [];
  const hashes = new SecretHashes(
    (secret) => {
      computed.push(secret);
      return keyedHash('pepper', secret);
    },
    () => now,
  );
  return { hashes, computed, advance: (ms: number) => (now += ms) };
}

describe('the hashes of presented secrets', () => {
  test('answers the keyed hash, computing it once for a secret sent again and again', () => {
    const { hashes, computed } = counted();
    for (let i = 0; i < 5; i++) assert.equal(hashes.hashOf('ifk_a'), keyedHash('pepper', 'ifk_a'));
    assert.deepEqual(computed, ['ifk_a']);
  });

  test('forgets a secret not presented for two periods, and keeps one in use', () => {
    const { hashes, computed, advance } = counted();
    hashes.hashOf('ifk_idle');
    hashes.hashOf('ifk_busy');
    for (let i = 0; i < 4; i++) {
      advance(PERIOD_MS);
      hashes.hashOf('ifk_busy');
    }
    hashes.hashOf('ifk_idle');
    assert.deepEqual(computed, ['ifk_idle', 'ifk_busy', 'ifk_idle'], 'the idle secret was hashed again');
  });

  test('holds at most two generations of MAX secrets', () => {
    const { hashes, computed } = counted();
    for (let i = 0; i < 3 * MAX; i++) hashes.hashOf(`ifk_${i}`);
    hashes.hashOf('ifk_0');
    assert.equal(computed.length, 3 * MAX + 1, 'the oldest generation was dropped whole');
  });
});

test('remembers no presented secret: its entries are found by a hash of it under a key of the process', () => {
  const { hashes } = counted();
  const secret = `ifk_${'a1'.repeat(32)}`;
  hashes.hashOf(secret);
  hashes.hashOf(secret);
  const remembered = Object.values(hashes).flatMap((value) =>
    value instanceof Map ? [...value.entries()].flat() : [value],
  );
  assert.ok(remembered.length > 0);
  for (const value of remembered) assert.ok(!String(value).includes(secret), 'a presented secret kept in memory');
});
