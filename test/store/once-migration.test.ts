/**
 * Migration 7 on a database written when card-rail steps were counters with period 'once':
 * an event already processed stays processed, and the counters keep only quota and limits.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { sqliteBefore } from '../support/old-schema.ts';

test('card-rail steps marked before version 7 stay done; one given back stays undone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-once-migration-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'mod97.db');
  const old = sqliteBefore(path, 7);
  const counter = old.prepare('INSERT INTO counters (scope, subject, period, used) VALUES (?, ?, ?, ?)');
  counter.run('stripe_event', 'evt_done', 'once', 1);
  counter.run('stripe_event', 'evt_given_back', 'once', 0);
  counter.run('key', 'key-1', '2026-11', 7);
  old.close();

  const store = openSqliteStore(`sqlite:${path}`);
  after(() => store.close());
  assert.equal(await store.markDone('stripe_event', 'evt_done', 1), false);
  assert.equal(await store.markDone('stripe_event', 'evt_given_back', 1), true);
  assert.equal(await store.read({ scope: 'key', subject: 'key-1', period: '2026-11' }), 7);
  const check = new Database(path, { readonly: true });
  after(() => check.close());
  assert.deepEqual(check.prepare("SELECT COUNT(*) AS n FROM counters WHERE period = 'once'").get(), { n: 0 });
});
