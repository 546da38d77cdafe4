/**
 * Migration 23 on a database written before every Pro subscription of a key was recorded: the
 * subscription each key holds is carried over, so that cancelling and the end of another
 * subscription see it (docs/api.md, "POST /v1/card/webhook").
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { sqliteBefore } from '../support/old-schema.ts';

test('the subscription a key holds before version 23 is recorded as one of its subscriptions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-subscriptions-migration-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'mod97.db');
  const old = sqliteBefore(path, 23);
  const key =
    old.prepare(`INSERT INTO api_keys (id, key_hash, key_prefix, tier, basis, cap, network, created_at, subscription_id)
    VALUES (?, ?, 'ifk_abcd', ?, 'monthly', ?, '127.0.0.1', ?, ?)`);
  key.run('key-pro', 'hash-pro', 'pro', 10_000, 5, 'sub_old');
  key.run('key-free', 'hash-free', 'anonymous', 25, 6, null);
  old.close();

  const store = openSqliteStore(`sqlite:${path}`);
  after(() => store.close());
  assert.deepEqual(await store.subscriptionsOf('key-pro'), ['sub_old']);
  assert.deepEqual(await store.subscriptionsOf('key-free'), []);
});
