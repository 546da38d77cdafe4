/**
 * On SQLite a first request with an Idempotency-Key costs one write: it is held in memory while
 * it is answered (the file serves one process), and its entry is written once, with the answer.
 * The contract (test/store/idempotency-contract.ts) holds what both engines answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../../src/store/sqlite/index.ts';

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;
const ANSWER = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"valid":true}' };

function opened() {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-idem-'));
  const file = join(dir, 'store.db');
  const store = openSqliteStore(`sqlite:${file}`);
  const look = new Database(file, { readonly: true });
  after(async () => {
    look.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rows = () =>
    look.prepare('SELECT scope, idem_key AS key, status, body FROM idempotency_keys').all() as {
      scope: string;
      key: string;
      status: number;
      body: string | null;
    }[];
  return { store, rows };
}

const reservation = (token: string) => ({
  scope: 'key:k1',
  key: 'hash-1',
  fingerprint: 'POST /v1/iban/validate body-1',
  token,
  now: NOW,
  expiresAt: NOW + DAY,
  staleBefore: NOW - 60_000,
});

test('a request being answered is written nowhere; its entry is written once, whole, with its answer', async () => {
  const { store, rows } = opened();
  assert.deepEqual(await store.reserveIdempotency(reservation('t1')), { state: 'reserved' });
  assert.deepEqual(rows(), [], 'the reservation is not a write');
  assert.deepEqual(await store.reserveIdempotency(reservation('t2')), { state: 'in_progress' });

  const completing = store.completeIdempotency('key:k1', 'hash-1', 't1', ANSWER);
  // Until the answer is committed the key stays held: a retry meanwhile never runs a second time.
  assert.deepEqual(await store.reserveIdempotency(reservation('t3')), { state: 'in_progress' });
  assert.equal(await completing, true);
  assert.deepEqual(rows(), [{ scope: 'key:k1', key: 'hash-1', status: 200, body: ANSWER.body }]);
  assert.deepEqual(await store.reserveIdempotency(reservation('t4')), { state: 'done', answer: ANSWER });
});

test('a released request leaves nothing behind', async () => {
  const { store, rows } = opened();
  await store.reserveIdempotency(reservation('t1'));
  await store.releaseIdempotency('key:k1', 'hash-1', 't1');
  assert.deepEqual(rows(), []);
  assert.deepEqual(await store.reserveIdempotency(reservation('t2')), { state: 'reserved' });
});
