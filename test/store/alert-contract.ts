/**
 * Store contract for charging several counters together and for the creation alert
 * (CounterStore.admitAll/refundAll, AlertStore), run inside storeContract for every engine.
 * The alert is one row per database, so these tests run in order on times of their own.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { CounterRef, Store } from '../../src/store/types.ts';
import { newKeyRow } from './contract.ts';

const HOUR = 3600_000;

export function alertContract(current: () => Store): void {
  const ref = (period = 'alert'): CounterRef => ({ scope: 'key', subject: randomUUID(), period });

  test('admitAll charges every counter within its own limit, or none of them', async () => {
    const store = current();
    const life = ref();
    const month = ref('2026-11');
    assert.deepEqual(
      await store.admitAll(
        [
          { ref: life, limit: 5 },
          { ref: month, limit: 25 },
        ],
        4,
      ),
      [4, 4],
    );
    assert.equal(
      await store.admitAll(
        [
          { ref: life, limit: 5 },
          { ref: month, limit: 25 },
        ],
        2,
      ),
      null,
      'the first counter refuses',
    );
    await store.admit(month, 21, 25);
    assert.equal(
      await store.admitAll(
        [
          { ref: life, limit: 5 },
          { ref: month, limit: 25 },
        ],
        1,
      ),
      null,
      'the second counter refuses',
    );
    assert.deepEqual(
      [await store.read(life), await store.read(month)],
      [4, 25],
      'a refusal leaves every counter as it was',
    );
    await store.refund(month, 1);
    assert.deepEqual(
      await store.admitAll(
        [
          { ref: month, limit: 25 },
          { ref: life, limit: 5 },
        ],
        1,
      ),
      [25, 5],
      'counts come back in the order given',
    );
  });

  test('50 concurrent admitAll on two counters: exactly the first cap is served, and both counters agree', async () => {
    const store = current();
    const life = ref();
    const month = ref('2026-11');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.admitAll(
          i % 2
            ? [
                { ref: life, limit: 5 },
                { ref: month, limit: 25 },
              ]
            : [
                { ref: month, limit: 25 },
                { ref: life, limit: 5 },
              ],
          1,
        ),
      ),
    );
    assert.equal(results.filter((r) => r !== null).length, 5);
    assert.deepEqual([await store.read(life), await store.read(month)], [5, 5]);
  });

  test('refundAll gives back from every counter, never below zero', async () => {
    const store = current();
    const life = ref();
    const month = ref('2026-11');
    await store.admit(life, 3, 5);
    await store.admit(month, 1, 25);
    assert.deepEqual(await store.refundAll([life, month], 2), [1, 0]);
    assert.deepEqual(await store.refundAll([ref(), life], 1), [0, 0], 'a missing counter is harmless');
  });

  test('anonymous creations are counted over the whole seconds of the window, whatever the minute boundaries', async () => {
    const store = current();
    const t0 = Date.parse('2031-01-01T12:00:45Z');
    assert.equal(await store.countAnonymousCreation(t0, 600), 1);
    assert.equal(await store.countAnonymousCreation(t0 + 300_000, 600), 2);
    assert.equal(
      await store.countAnonymousCreation(t0 + 599_000, 600),
      3,
      'still in the window at 9:59, across 11 minute buckets',
    );
    assert.equal(
      await store.countAnonymousCreation(t0 + 600_000, 600),
      3,
      'exactly 10 minutes later the first one has left the window',
    );
    assert.equal(
      await store.countAnonymousCreation(t0 + 5 * HOUR, 600),
      1,
      'old buckets do not count, however many there were',
    );
  });

  test('of 40 creations counted concurrently in one second, the last one counted sees all 40', async () => {
    const store = current();
    const at = Date.parse('2031-02-01T12:00:00Z');
    const counts = await Promise.all(Array.from({ length: 40 }, () => store.countAnonymousCreation(at, 600)));
    assert.equal(Math.max(...counts), 40);
  });

  test('an alert is identified by its start: bursts while it is on extend it, a burst after it starts a new one', async () => {
    const store = current();
    const t0 = Date.parse('2031-03-01T12:00:00Z');
    assert.deepEqual(await store.extendAlert(t0, t0 + 3 * HOUR), { startedAt: t0, endsAt: t0 + 3 * HOUR });
    assert.deepEqual(
      await store.extendAlert(t0 + HOUR, t0 + 4 * HOUR),
      { startedAt: t0, endsAt: t0 + 4 * HOUR },
      'extended, same identity',
    );
    assert.deepEqual(await store.latestAlert(), { startedAt: t0, endsAt: t0 + 4 * HOUR });
    const later = t0 + 5 * HOUR;
    assert.deepEqual(
      await store.extendAlert(later, later + 3 * HOUR),
      { startedAt: later, endsAt: later + 3 * HOUR },
      'a new alert',
    );
    const racing = await Promise.all(
      [1, 2, 3].map((i) => store.extendAlert(later + 9 * HOUR + i, later + 12 * HOUR + i)),
    );
    assert.equal(
      new Set(racing.map((a) => a.startedAt)).size,
      1,
      'processes racing to start an alert agree on one identity',
    );
  });

  test('a key keeps the identity of the alert it was born in', async () => {
    const store = current();
    const born = newKeyRow({ alertBorn: true, alertId: 1_900_000_000_000 });
    const plain = newKeyRow();
    await store.insertKey(born);
    await store.insertKey(plain);
    assert.deepEqual(
      [(await store.keyById(born.id))?.alertBorn, (await store.keyById(born.id))?.alertId],
      [true, 1_900_000_000_000],
    );
    assert.equal((await store.keyByHash(plain.keyHash))?.alertId, null);
  });
}
