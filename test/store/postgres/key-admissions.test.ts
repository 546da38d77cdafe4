/**
 * keyByHashAdmitting on PostgreSQL (when MOD97_TEST_POSTGRES_URL is set): a key's lookup and its
 * charge in one statement, on the charge period stored on the key row, which must charge exactly
 * as admit does, or leave the charge to it; and the stored period kept true.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { CreationAlert } from '../../../src/keys/alert.ts';
import { Meter } from '../../../src/quota/meter.ts';
import { chargePeriodOf, MONTH_OF_CALL } from '../../../src/records.ts';
import { openPostgresStore } from '../../../src/store/postgres/index.ts';
import type { KeyAdmission, NewKey } from '../../../src/store/types.ts';
import { inSchema, pgUrl, storeSuite } from '../../support/pg.ts';
import { newKeyRow } from '../contract.ts';

const MONTH = '2026-11';
const NOW = Date.UTC(2026, 10, 15);

describe('a key looked up and charged in one statement (postgres)', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, () => {
  const suite = storeSuite();
  let admitting: (hash: string, cost: number) => Promise<KeyAdmission>;
  before(() => {
    const method = suite.store.keyByHashAdmitting;
    assert.ok(method);
    admitting = (hash, cost) => method(hash, cost, MONTH);
  });

  /** A key whose counter row holds `used` (above zero). */
  async function keyAt(used: number, overrides: Partial<NewKey> = {}) {
    const row = newKeyRow(overrides);
    await suite.store.insertKey(row);
    const stored = chargePeriodOf(row);
    const period = stored === MONTH_OF_CALL ? MONTH : stored;
    const ref = { scope: 'key' as const, subject: row.id, period };
    await suite.store.admit(ref, used, used);
    return { row, ref };
  }

  const storedPeriod = async (id: string) =>
    (await suite.admin.unsafe('SELECT charge_period FROM api_keys WHERE id = $1', [id]))[0]?.charge_period;

  test('charges while the cap allows and refuses without writing when it does not', async () => {
    const { row, ref } = await keyAt(20);
    const first = await admitting(row.keyHash, 4);
    assert.equal(first.key?.id, row.id);
    assert.deepEqual(first.charged, { period: MONTH, used: 24 });
    assert.deepEqual((await admitting(row.keyHash, 2)).charged, { period: MONTH, used: null });
    assert.equal(await suite.store.read(ref), 24);
    assert.equal((await admitting(row.keyHash, 1)).charged?.used, 25);
  });

  test('a lifetime key is charged on its own period', async () => {
    const { row, ref } = await keyAt(1, { basis: 'lifetime', lifetimePeriod: 'life-1', limit: 3 });
    assert.deepEqual((await admitting(row.keyHash, 2)).charged, { period: 'life-1', used: 3 });
    assert.equal(await suite.store.read(ref), 3);
  });

  test('a plan change moves the stored period with it', async () => {
    const { row } = await keyAt(1);
    assert.equal(await storedPeriod(row.id), chargePeriodOf(row));
    const change = { tier: 'claimed' as const, basis: 'lifetime' as const, limit: 200, lifetimePeriod: 'lifetime:1' };
    assert.equal(await suite.store.changePlan(row.id, 0, change), true);
    assert.equal(await storedPeriod(row.id), 'lifetime:1');
    const ref = { scope: 'key' as const, subject: row.id, period: 'lifetime:1' };
    await suite.store.admit(ref, 7, 200);
    assert.deepEqual((await admitting(row.keyHash, 1)).charged, { period: 'lifetime:1', used: 8 });
  });

  test('leaves the charge to the caller: no counter row yet, a key born in a creation alert, a repeat in the same turn, no stored period', async () => {
    const fresh = newKeyRow();
    await suite.store.insertKey(fresh);
    const born = await keyAt(1, { alertBorn: true, alertId: 1 });
    const twice = await keyAt(1, { limit: 10 });
    const unwritten = await keyAt(1);
    await suite.admin.unsafe('UPDATE api_keys SET charge_period = NULL WHERE id = $1', [unwritten.row.id]);
    const answers = await Promise.all([
      admitting(fresh.keyHash, 1),
      admitting(born.row.keyHash, 1),
      admitting(twice.row.keyHash, 1),
      admitting(twice.row.keyHash, 1),
      admitting(unwritten.row.keyHash, 1),
    ]);
    assert.deepEqual(
      answers.map((a) => [a.key?.id, a.charged?.used ?? 'untried']),
      [
        [fresh.id, 'untried'],
        [born.row.id, 'untried'],
        [twice.row.id, 2],
        [twice.row.id, 'untried'],
        [unwritten.row.id, 'untried'],
      ],
    );
    assert.equal(await suite.store.read({ scope: 'key', subject: fresh.id, period: MONTH }), 0);
    assert.equal(await suite.store.read(born.ref), 1);
    assert.equal(await suite.store.read(unwritten.ref), 1);
  });

  test('an unknown or revoked key is not found and nothing is charged', async () => {
    const { row, ref } = await keyAt(1);
    await suite.store.revokeKey(row.id, Date.now());
    assert.deepEqual(await admitting(row.keyHash, 1), { key: null });
    assert.deepEqual(await admitting('no-such-hash', 1), { key: null });
    assert.equal(await suite.store.read(ref), 1);
  });

  test('200 concurrent calls, half of them plain admits, for the last 50 units: exactly 50 charged', async () => {
    const { row, ref } = await keyAt(150, { limit: 200 });
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        if (i % 2) return suite.store.admit(ref, 1, 200);
        const answer = await admitting(row.keyHash, 1);
        return answer.charged === undefined ? suite.store.admit(ref, 1, 200) : answer.charged.used;
      }),
    );
    assert.equal(results.filter((r) => r !== null).length, 50);
    assert.equal(await suite.store.read(ref), 200);
  });

  test('a counter row changed while the statement waited for its lock is left to the caller: the other change kept, nothing charged twice', async () => {
    const { row, ref } = await keyAt(5, { limit: 100 });
    const holder = await suite.connect();
    try {
      const [{ pid }] = await holder.unsafe('SELECT pg_backend_pid() AS pid');
      await holder.unsafe('BEGIN');
      await holder.unsafe("UPDATE counters SET used = used + 10 WHERE scope = 'key' AND subject = $1", [row.id]);
      const answer = admitting(row.keyHash, 1);
      // The statement waits for the row's lock: then the other transaction commits its change.
      await suite.untilWaitedFor(pid);
      await holder.unsafe('COMMIT');
      assert.deepEqual((await answer).charged, undefined);
    } finally {
      await holder.end();
    }
    assert.equal(await suite.store.read(ref), 15);
    assert.deepEqual((await admitting(row.keyHash, 1)).charged, { period: MONTH, used: 16 });
  });

  test('rows without a stored period get theirs when the store opens', async () => {
    const monthly = await keyAt(1);
    const lifetime = await keyAt(1, { basis: 'lifetime', lifetimePeriod: 'life-2', limit: 9 });
    await suite.admin.unsafe('UPDATE api_keys SET charge_period = NULL WHERE id IN ($1, $2)', [
      monthly.row.id,
      lifetime.row.id,
    ]);
    await (await openPostgresStore(inSchema(suite.schema))).close();
    assert.equal(await storedPeriod(monthly.row.id), 'month');
    assert.equal(await storedPeriod(lifetime.row.id), 'life-2');
  });

  test('the rows without a stored period are found through an index that holds only them', async () => {
    // With sequential scans off, the look the store makes when it opens (keys.ts) reads the index.
    await suite.admin.unsafe('BEGIN');
    await suite.admin.unsafe('SET LOCAL enable_seqscan = off');
    const plan = await suite.admin.unsafe('EXPLAIN (FORMAT JSON) SELECT id FROM api_keys WHERE charge_period IS NULL');
    await suite.admin.unsafe('COMMIT');
    assert.match(JSON.stringify(plan), /"Index Name":"api_keys_charge_period_missing"/);
    const [index] = await suite.admin.unsafe(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'api_keys_charge_period_missing' AND schemaname = current_schema()",
    );
    assert.match(String(index?.indexdef), /WHERE \(charge_period IS NULL\)$/);
  });

  test('the meter refunds a charge on a stored period its plan does not charge, and admits as usual', async () => {
    const { row, ref } = await keyAt(3, { limit: 10 });
    const wrong = { scope: 'key' as const, subject: row.id, period: 'stale' };
    await suite.store.admit(wrong, 5, 5);
    await suite.admin.unsafe(`UPDATE api_keys SET charge_period = 'stale' WHERE id = $1`, [row.id]);
    const clock = () => NOW;
    const meter = new Meter(suite.store, clock, new CreationAlert(suite.store, clock));
    const { key, admission } = await meter.authenticateAndAdmit(row.keyHash, 1);
    assert.equal(key?.id, row.id);
    assert.equal(admission, undefined);
    assert.equal(await suite.store.read(wrong), 5);
    assert.equal(await suite.store.read(ref), 3);
    // Where the stored period is right, the meter's admission is the store's charge.
    await suite.admin.unsafe(`UPDATE api_keys SET charge_period = 'month' WHERE id = $1`, [row.id]);
    const right = await meter.authenticateAndAdmit(row.keyHash, 2);
    assert.deepEqual(
      [right.admission?.admitted, right.admission?.used, right.admission?.plan.counter.period],
      [true, 5, MONTH],
    );
    assert.equal(await suite.store.read(ref), 5);
  });
});
