/**
 * keyByHashAdmitting on PostgreSQL (when MOD97_TEST_POSTGRES_URL is set): a key's lookup and
 * its charge in one statement, which must charge exactly as admit does, or leave the charge to it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPostgresStore } from '../../../src/store/postgres/index.ts';
import type { KeyAdmission, Store } from '../../../src/store/types.ts';
import { dropSchemas, inSchema, newSchemaName, pgUrl } from '../../support/pg.ts';
import { newKeyRow } from '../contract.ts';

const MONTH = '2026-11';

describe('a key looked up and charged in one statement (postgres)', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, () => {
  const schema = newSchemaName();
  let store: Store;
  let admitting: (hash: string, cost: number) => Promise<KeyAdmission>;
  before(async () => {
    store = await openPostgresStore(inSchema(schema));
    const method = store.keyByHashAdmitting;
    assert.ok(method);
    admitting = (hash, cost) => method(hash, cost, MONTH);
  });
  after(async () => {
    await store?.close();
    await dropSchemas(schema);
  });

  /** A key whose counter row holds `used` (above zero). */
  async function keyAt(used: number, overrides: Parameters<typeof newKeyRow>[0] = {}) {
    const row = newKeyRow(overrides);
    await store.insertKey(row);
    const period = row.basis === 'monthly' ? MONTH : (row.lifetimePeriod ?? row.basis);
    const ref = { scope: 'key' as const, subject: row.id, period };
    await store.admit(ref, used, used);
    return { row, ref };
  }

  test('charges while the cap allows and refuses without writing when it does not', async () => {
    const { row, ref } = await keyAt(20);
    const first = await admitting(row.keyHash, 4);
    assert.equal(first.key?.id, row.id);
    assert.equal(first.used, 24);
    assert.equal((await admitting(row.keyHash, 2)).used, null);
    assert.equal(await store.read(ref), 24);
    assert.equal((await admitting(row.keyHash, 1)).used, 25);
  });

  test('a lifetime key is charged on its own period', async () => {
    const { row, ref } = await keyAt(1, { basis: 'lifetime', lifetimePeriod: 'life-1', limit: 3 });
    assert.equal((await admitting(row.keyHash, 2)).used, 3);
    assert.equal(await store.read(ref), 3);
  });

  test('leaves the charge to the caller: no counter row yet, a key born in a creation alert, a repeat in the same turn', async () => {
    const fresh = newKeyRow();
    await store.insertKey(fresh);
    const born = await keyAt(1, { alertBorn: true, alertId: 1 });
    const twice = await keyAt(1, { limit: 10 });
    const answers = await Promise.all([
      admitting(fresh.keyHash, 1),
      admitting(born.row.keyHash, 1),
      admitting(twice.row.keyHash, 1),
      admitting(twice.row.keyHash, 1),
    ]);
    assert.deepEqual(
      answers.map((a) => [a.key?.id, 'used' in a ? a.used : 'untried']),
      [
        [fresh.id, 'untried'],
        [born.row.id, 'untried'],
        [twice.row.id, 2],
        [twice.row.id, 'untried'],
      ],
    );
    assert.equal(await store.read({ scope: 'key', subject: fresh.id, period: MONTH }), 0);
    assert.equal(await store.read(born.ref), 1);
  });

  test('an unknown or revoked key is not found and nothing is charged', async () => {
    const { row, ref } = await keyAt(1);
    await store.revokeKey(row.id, Date.now());
    assert.deepEqual(await admitting(row.keyHash, 1), { key: null });
    assert.deepEqual(await admitting('no-such-hash', 1), { key: null });
    assert.equal(await store.read(ref), 1);
  });

  test('200 concurrent calls, half of them plain admits, for the last 50 units: exactly 50 charged', async () => {
    const { row, ref } = await keyAt(150, { limit: 200 });
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        if (i % 2) return store.admit(ref, 1, 200);
        const answer = await admitting(row.keyHash, 1);
        return answer.used === undefined ? store.admit(ref, 1, 200) : answer.used;
      }),
    );
    assert.equal(results.filter((r) => r !== null).length, 50);
    assert.equal(await store.read(ref), 200);
  });
});
