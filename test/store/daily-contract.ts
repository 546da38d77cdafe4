/** Per-day use of keys (the usage chart), the same on every engine. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Store } from '../../src/store/types.ts';

export function dailyContract(current: () => Store): void {
  test('daily use adds up per key and day, and a range lists only its own days, oldest first', async () => {
    const store = current();
    const [a, b] = [randomUUID(), randomUUID()];
    await store.addDailyUsage([
      { keyId: a, day: '2026-11-02', used: 3 },
      { keyId: b, day: '2026-11-02', used: 7 },
      { keyId: a, day: '2026-10-31', used: 1 },
      { keyId: b, day: '2026-11-02', used: 1 },
    ]);
    await store.addDailyUsage([{ keyId: a, day: '2026-11-02', used: 2 }]);
    await store.addDailyUsage([]);
    assert.deepEqual(await store.dailyUsage(a, '2026-11-01', '2026-11-30'), [{ day: '2026-11-02', used: 5 }]);
    assert.deepEqual(await store.dailyUsage(a, '2026-10-01', '2026-11-02'), [
      { day: '2026-10-31', used: 1 },
      { day: '2026-11-02', used: 5 },
    ]);
    // The same key and day twice in one batch adds both.
    assert.deepEqual(await store.dailyUsage(b, '2026-11-01', '2026-11-30'), [{ day: '2026-11-02', used: 8 }]);
    assert.deepEqual(await store.dailyUsage(b, '2026-11-03', '2026-11-30'), []);
  });

  test('concurrent batches for the same day lose nothing', async () => {
    const store = current();
    const key = randomUUID();
    await Promise.all(
      Array.from({ length: 20 }, () => store.addDailyUsage([{ keyId: key, day: '2026-11-05', used: 1 }])),
    );
    assert.deepEqual(await store.dailyUsage(key, '2026-11-05', '2026-11-05'), [{ day: '2026-11-05', used: 20 }]);
  });
}
