/**
 * On SQLite a request with an Idempotency-Key is held in memory while it is answered (the file
 * serves one process), and where each entry's row is is known in memory too, read back from the
 * table on first use. The contract (test/store/idempotency-contract.ts) holds what both
 * engines answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { hashOf } from '../../../src/store/sqlite/idempotency.ts';
import { openSqliteStore } from '../../../src/store/sqlite/index.ts';
import { sqliteBefore } from '../../support/old-schema.ts';

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;
const ANSWER = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"valid":true}' };
const COUNTER = { scope: 'key' as const, subject: 'k1', period: '2027-01' };

/** A database file of its own, removed after the test. */
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-idem-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'store.db');
}

/** Makes the database refuse to insert the entry of `token` (a trigger standing in for a full disk); returns the undo. */
function refuseEntryOf(file: string, token: string): () => void {
  const schema = new Database(file);
  after(() => schema.close());
  schema.exec(`CREATE TRIGGER refuse_${token} BEFORE INSERT ON idempotency_keys WHEN NEW.token = '${token}'
    BEGIN SELECT RAISE(ABORT, 'write refused'); END`);
  return () => schema.exec(`DROP TRIGGER refuse_${token}`);
}

function opened() {
  const file = tempFile();
  const store = openSqliteStore(`sqlite:${file}`);
  const look = new Database(file, { readonly: true });
  after(async () => {
    look.close();
    await store.close();
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

test('a request being answered is written nowhere; its answer is written behind it, and a retry before that gets it all the same', async () => {
  const { store, rows } = opened();
  assert.deepEqual(await store.reserveIdempotency(reservation('t1')), { state: 'reserved' });
  assert.deepEqual(rows(), [], 'the reservation is not a write');
  assert.deepEqual(await store.reserveIdempotency(reservation('t2')), { state: 'in_progress' });

  assert.equal(await store.completeIdempotency('key:k1', 'hash-1', 't1', ANSWER), true);
  assert.deepEqual(rows(), [], 'the answer went out before it was written');
  assert.deepEqual(await store.reserveIdempotency(reservation('t3')), { state: 'done', answer: ANSWER });
  assert.deepEqual(rows(), [{ scope: 'key:k1', key: 'hash-1', status: 200, body: ANSWER.body }], 'written once, whole');
  assert.deepEqual(await store.reserveIdempotency(reservation('t4')), { state: 'done', answer: ANSWER });
});

test('the answers not yet written are written when the store closes', async () => {
  const file = tempFile();
  const first = openSqliteStore(`sqlite:${file}`);
  await first.reserveIdempotency(reservation('t1'));
  assert.equal(await first.completeIdempotency('key:k1', 'hash-1', 't1', ANSWER), true);
  await first.close();
  const second = openSqliteStore(`sqlite:${file}`);
  after(() => second.close());
  assert.deepEqual(await second.reserveIdempotency(reservation('t2')), { state: 'done', answer: ANSWER });
});

test('a released request leaves nothing behind', async () => {
  const { store, rows } = opened();
  await store.reserveIdempotency(reservation('t1'));
  await store.releaseIdempotency('key:k1', 'hash-1', 't1');
  assert.deepEqual(rows(), []);
  assert.deepEqual(await store.reserveIdempotency(reservation('t2')), { state: 'reserved' });
});

test('a store opened again finds every entry it wrote: answered, left unanswered, or taken over', async () => {
  const file = tempFile();
  const url = `sqlite:${file}`;
  const first = openSqliteStore(url);
  await first.reserveIdempotency(reservation('t1'));
  await first.completeIdempotency('key:k1', 'hash-1', 't1', ANSWER);
  const left = { ...reservation('t2'), key: 'hash-2' };
  await first.reserveIdempotency(left);
  assert.equal(await first.admit(COUNTER, 1, 10, left), 1, 'charged, and its process dies before the answer');
  await first.close();

  const second = openSqliteStore(url);
  after(() => second.close());
  assert.deepEqual(await second.reserveIdempotency(reservation('t3')), { state: 'done', answer: ANSWER });
  assert.deepEqual(await second.reserveIdempotency({ ...reservation('t4'), fingerprint: 'other body' }), {
    state: 'mismatch',
  });
  const retry = { ...left, token: 't5', now: NOW + 61_000, staleBefore: NOW + 1_000 };
  assert.deepEqual(await second.reserveIdempotency(retry), { state: 'resumed' });
  assert.equal(await second.completeIdempotency('key:k1', 'hash-2', 't5', ANSWER), true);
  assert.deepEqual(await second.reserveIdempotency({ ...retry, token: 't6' }), { state: 'done', answer: ANSWER });
  const look = new Database(file, { readonly: true });
  after(() => look.close());
  const kept = look.prepare('SELECT idem_key AS key, status FROM idempotency_keys ORDER BY seq').all();
  assert.deepEqual(kept, [
    { key: 'hash-1', status: 200 },
    { key: 'hash-2', status: 200 },
  ]);
});

test('the entries of a database made before version 21 are kept, and answer their retries', async () => {
  const file = tempFile();
  const old = sqliteBefore(file, 21);
  old
    .prepare(
      `INSERT INTO idempotency_keys (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at)
       VALUES ('key:k1', 'hash-1', ?, 't0', 200, ?, ?, ?, ?)`,
    )
    .run(reservation('t0').fingerprint, ANSWER.contentType, ANSWER.body, NOW, NOW + DAY);
  old.close();

  const store = openSqliteStore(`sqlite:${file}`);
  after(() => store.close());
  assert.deepEqual(await store.reserveIdempotency(reservation('t1')), { state: 'done', answer: ANSWER });
});

test('a large index is read in pages on first use, the event loop given back between them', async () => {
  const file = tempFile();
  await openSqliteStore(`sqlite:${file}`).close();
  const fill = new Database(file);
  const insert = fill.prepare(
    `INSERT INTO idempotency_keys (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at)
     VALUES ('key:k1', ?, ?, ?, 200, ?, ?, ?, ?)`,
  );
  const { fingerprint } = reservation('t0');
  fill.transaction(() => {
    for (let i = 0; i < 25_000; i++)
      insert.run(`hash-${i}`, fingerprint, `t${i}`, ANSWER.contentType, ANSWER.body, NOW, NOW + DAY);
  })();
  fill.close();

  const store = openSqliteStore(`sqlite:${file}`);
  after(() => store.close());
  const claimed = store.reserveIdempotency({ ...reservation('t1'), key: 'hash-24999' });
  let otherWorkRan = false;
  setImmediate(() => {
    otherWorkRan = true;
  });
  assert.deepEqual(await claimed, { state: 'done', answer: ANSWER }, 'the last row read is found');
  assert.equal(otherWorkRan, true, 'the event loop ran while the index was read');
});

test("a hung request taken over keeps nothing when it answers late: one entry stands, its successor's", async () => {
  const { store, rows } = opened();
  const hung = reservation('t1');
  await store.reserveIdempotency(hung);
  assert.equal(await store.admit(COUNTER, 1, 10, hung), 1);
  // Before it answers, the same request is retried past the stale time.
  const retry = { ...reservation('t2'), now: NOW + 61_000, staleBefore: NOW + 1_000 };
  assert.deepEqual(await store.reserveIdempotency(retry), { state: 'resumed' });
  assert.equal(await store.completeIdempotency('key:k1', 'hash-1', 't1', ANSWER), false, 'no longer its key');
  assert.equal(await store.completeIdempotency('key:k1', 'hash-1', 't2', ANSWER), true);
  assert.equal(await store.purgeIdempotency(NOW), 0, 'the answer written, nothing expired');
  assert.deepEqual(rows(), [{ scope: 'key:k1', key: 'hash-1', status: 200, body: ANSWER.body }]);
});

test('two keys of one scope that share the index hash each answer their own retries, before and after a reopen', async () => {
  const seen = new Map<number, string>();
  let pair: [string, string] | undefined;
  for (let i = 0; !pair; i++) {
    const key = `hash-${i}`;
    const at = hashOf('key:k1', key);
    const other = seen.get(at);
    if (other) pair = [other, key];
    seen.set(at, key);
  }
  const file = tempFile();
  const answerOf = (key: string) => ({ ...ANSWER, body: JSON.stringify({ key }) });
  const first = openSqliteStore(`sqlite:${file}`);
  for (const key of pair) {
    const r = { ...reservation(`t-${key}`), key };
    assert.deepEqual(await first.reserveIdempotency(r), { state: 'reserved' });
    assert.equal(await first.completeIdempotency('key:k1', key, r.token, answerOf(key)), true);
  }
  const replays = async (store: ReturnType<typeof openSqliteStore>) => {
    for (const key of pair) {
      const again = { ...reservation(`again-${key}`), key };
      assert.deepEqual(await store.reserveIdempotency(again), { state: 'done', answer: answerOf(key) });
    }
  };
  await replays(first);
  await first.close();
  const second = openSqliteStore(`sqlite:${file}`);
  after(() => second.close());
  await replays(second);
});

test('a takeover whose write is rolled back leaves the entry it would replace in place: the next retry is still not charged', async () => {
  const file = tempFile();
  const url = `sqlite:${file}`;
  const first = openSqliteStore(url);
  const charged = reservation('t1');
  await first.reserveIdempotency(charged);
  assert.equal(await first.admit(COUNTER, 1, 10, charged), 1, 'charged, and its process dies before the answer');
  await first.close();

  const second = openSqliteStore(url);
  after(() => second.close());
  const retry = (token: string) => ({ ...charged, token, now: NOW + 61_000, staleBefore: NOW + 1_000 });
  assert.deepEqual(await second.reserveIdempotency(retry('t2')), { state: 'resumed' });
  // The retry's answer fails to be written (a trigger stands in for a full disk): its delete of
  // the unanswered entry is rolled back with it, and the answer is lost as in a crash.
  const allow = refuseEntryOf(file, 't2');
  assert.equal(await second.completeIdempotency('key:k1', 'hash-1', 't2', ANSWER), true, 'answered, not yet written');
  assert.equal(await second.purgeIdempotency(NOW), 0, 'the write was tried, and refused');
  allow();

  assert.deepEqual(await second.reserveIdempotency(retry('t3')), { state: 'resumed' }, 'charged once already');
  assert.equal(await second.completeIdempotency('key:k1', 'hash-1', 't3', ANSWER), true);
  assert.deepEqual(await second.reserveIdempotency(retry('t4')), { state: 'done', answer: ANSWER });
});

test('an answer that cannot be written loses only itself, not the answers written with it', async () => {
  const file = tempFile();
  const first = openSqliteStore(`sqlite:${file}`);
  const allow = refuseEntryOf(file, 't1');
  const refused = reservation('t1');
  const kept = { ...reservation('t2'), key: 'hash-2' };
  // The kept one first: it is written, then rolled back with the batch, and written again alone.
  for (const r of [kept, refused]) {
    await first.reserveIdempotency(r);
    assert.equal(await first.completeIdempotency(r.scope, r.key, r.token, ANSWER), true);
  }
  await first.close();
  allow();

  const second = openSqliteStore(`sqlite:${file}`);
  after(() => second.close());
  assert.deepEqual(await second.reserveIdempotency({ ...kept, token: 't3' }), { state: 'done', answer: ANSWER });
  // Never charged (no entry was written with a charge): asked again, it is a first request.
  assert.deepEqual(await second.reserveIdempotency({ ...refused, token: 't4' }), { state: 'reserved' });
});
