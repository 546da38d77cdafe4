/**
 * The group admission on PostgreSQL (when MOD97_TEST_POSTGRES_URL is set), where it differs from
 * SQLite's: a counter row that another transaction changes while the group's statement waits for
 * its lock. The statement then locks the row's newer version, which its snapshot cannot see; each
 * admit must still be decided exactly once, on top of the other change.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CounterRef } from '../../../src/store/types.ts';
import { pgUrl, storeSuite } from '../../support/pg.ts';

describe('admits grouped in one statement (postgres)', { skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set' }, () => {
  const suite = storeSuite();

  let counter = 0;
  /** A trial counter of its own, holding `used`. */
  async function counterAt(used: number): Promise<CounterRef> {
    const ref = { scope: 'trial' as const, subject: `198.51.100.${++counter}`, period: '2026-11-28' };
    assert.equal(await suite.store.admit(ref, used, used), used);
    return ref;
  }

  /** Until the session `pid` waits for a lock. */
  async function untilWaiting(pid: unknown) {
    while (!(await suite.admin.unsafe('SELECT 1 WHERE cardinality(pg_blocking_pids($1)) > 0', [pid])).length) {}
  }

  /** Another session that adds `by` to `ref`'s row in a transaction it leaves open. */
  async function changing(ref: CounterRef, by: number) {
    const holder = await suite.connect();
    const [{ pid }] = await holder.unsafe('SELECT pg_backend_pid() AS pid');
    await holder.unsafe('BEGIN');
    const changed = holder.unsafe(
      'UPDATE counters SET used = used + $1 WHERE scope = $2 AND subject = $3 AND period = $4',
      [by, ref.scope, ref.subject, ref.period],
    );
    /**
     * Once its change is made and some statement waits for it, or `settled()` first: commit.
     * True when a statement waited for it.
     */
    const commitWhenWaitedFor = async (settled: () => boolean) => {
      await changed;
      const waitedFor = await suite.untilWaitedFor(pid, settled);
      await holder.unsafe('COMMIT');
      await holder.end();
      return waitedFor;
    };
    return { pid, changed, commitWhenWaitedFor };
  }

  /**
   * Runs `admits` (started in one turn, so they go out as one group) while other transactions
   * change `ref`'s row, each queued behind the first and committed in turn once the admission
   * waits for it: the group's statement meets one change after another. A change queued behind
   * the first may lose the row to the statement's second try, which then decides every admit
   * without it; that change is committed once the admits are answered, and `metEvery` is false.
   */
  async function whileChanged<T>(ref: CounterRef, by: number[], admits: () => Promise<T>) {
    const first = await changing(ref, by[0]);
    await first.changed;
    let answered = false;
    const answers = admits().finally(() => {
      answered = true;
    });
    const holders = [first];
    await suite.untilWaitedFor(first.pid);
    for (const change of by.slice(1)) {
      const next = await changing(ref, change);
      await untilWaiting(next.pid);
      holders.push(next);
    }
    let metEvery = true;
    for (const holder of holders) metEvery = (await holder.commitWhenWaitedFor(() => answered)) && metEvery;
    return { answers: await answers, metEvery };
  }

  test('each counter once: the changed row is charged on top of the change, the other as usual', async () => {
    const changed = await counterAt(5);
    const other = await counterAt(7);
    const { answers } = await whileChanged(changed, [10], () =>
      Promise.all([suite.store.admit(changed, 1, 100), suite.store.admit(other, 1, 100)]),
    );
    assert.deepEqual(answers, [16, 8]);
    assert.equal(await suite.store.read(changed), 16);
    assert.equal(await suite.store.read(other), 8);
  });

  test('a counter twice: both admits on top of the change, in arrival order, and a refusal at the cap', async () => {
    const changed = await counterAt(5);
    const { answers } = await whileChanged(changed, [10], () =>
      Promise.all([
        suite.store.admit(changed, 1, 17),
        suite.store.admit(changed, 1, 17),
        suite.store.admit(changed, 1, 17),
      ]),
    );
    assert.deepEqual(answers, [16, 17, null]);
    assert.equal(await suite.store.read(changed), 17);
  });

  test('a counter twice, refused by the change alone: nothing written, nothing charged', async () => {
    const changed = await counterAt(5);
    const { answers } = await whileChanged(changed, [95], () =>
      Promise.all([suite.store.admit(changed, 1, 100), suite.store.admit(changed, 1, 100)]),
    );
    assert.deepEqual(answers, [null, null]);
    assert.equal(await suite.store.read(changed), 100);
  });

  test('changed again before the second try: each admit still decided once, on top of both changes', async () => {
    const changed = await counterAt(5);
    const other = await counterAt(7);
    const { answers, metEvery } = await whileChanged(changed, [10, 20], () =>
      Promise.all([
        suite.store.admit(changed, 1, 100),
        suite.store.admit(other, 1, 100),
        suite.store.admit(changed, 2, 100),
      ]),
    );
    // As a rule the second try meets the second change too. When it took the row first (seen once
    // in CI, where the test then hung), the admits were decided on the first change alone, once each.
    assert.deepEqual(answers, metEvery ? [36, 8, 38] : [16, 8, 18]);
    assert.equal(await suite.store.read(changed), 38);
  });
});
