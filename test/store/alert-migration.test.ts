/**
 * Migration 6 on a database written before alerts had an identity: an alert in progress goes
 * on (as the alert started at 0) and the keys born in it stay reduced until it ends.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CreationAlert } from '../../src/keys/alert.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { sqliteBefore } from '../support/old-schema.ts';
import { newKeyRow } from './contract.ts';

test('an alert in progress before version 6 keeps going, and keys born in it stay reduced until it ends', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-alert-migration-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'mod97.db');
  const now = Date.parse('2026-11-21T12:00:00Z');
  const until = now + 2 * 3600_000;
  const key = newKeyRow({ alertBorn: true });

  const old = sqliteBefore(path, 6, now);
  old.prepare("INSERT INTO settings (name, value) VALUES ('alert_until', ?)").run(String(until));
  old
    .prepare(`INSERT INTO api_keys (id, key_hash, key_prefix, tier, basis, cap, network, created_at, alert_born)
    VALUES (?, ?, ?, 'anonymous', 'monthly', 25, ?, ?, 1)`)
    .run(key.id, key.keyHash, key.keyPrefix, key.network, now);
  old.close();

  const store = openSqliteStore(`sqlite:${path}`);
  after(() => store.close());
  assert.deepEqual(await store.latestAlert(), { startedAt: 0, endsAt: until });
  const row = (await store.keyById(key.id))!;
  assert.equal(row.alertId, 0);
  assert.equal(await new CreationAlert(store, () => now).isStillOn(row.alertId), true);
  assert.equal(await new CreationAlert(store, () => until).isStillOn(row.alertId), false);
});
