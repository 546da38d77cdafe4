import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { turnCommit } from '../../../src/store/sqlite/turn-commit.ts';

function table() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  return db;
}

test('a write that fails in a group fails only its own request; the others of the turn are kept', async () => {
  const db = table();
  const inTurn = turnCommit(db);
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  const results = await Promise.allSettled([
    inTurn(() => insert.run(1, 'first').changes),
    inTurn(() => {
      insert.run(2, 'half-written');
      return insert.run(1, 'duplicate id').changes; // fails: the row of id 2 must go with it
    }),
    inTurn(() => insert.run(3, 'third').changes),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE constraint failed/);
  assert.deepEqual(db.prepare('SELECT id, v FROM t ORDER BY id').all(), [
    { id: 1, v: 'first' },
    { id: 3, v: 'third' },
  ]);
  db.close();
});

test('the writes of one turn share one transaction and keep their order and results', async () => {
  const db = table();
  const inTurn = turnCommit(db);
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  const inTransaction: boolean[] = [];
  const ids = await Promise.all(
    [10, 11, 12].map((id) =>
      inTurn(() => {
        inTransaction.push(db.inTransaction);
        return Number(insert.run(id, `row ${id}`).lastInsertRowid);
      }),
    ),
  );
  assert.deepEqual(ids, [10, 11, 12]);
  assert.deepEqual(inTransaction, [true, true, true]);
  db.close();
});

test('a write after which SQLite rolled the whole transaction back fails the turn; no later write runs outside it', async () => {
  // SQLITE_FULL, SQLITE_IOERR and the like may roll the transaction back by themselves; the
  // writes made before it in the turn are gone, and one run after it would commit on its own.
  const db = table();
  const inTurn = turnCommit(db);
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  const results = await Promise.allSettled([
    inTurn(() => insert.run(1, 'rolled back with the turn').changes),
    inTurn(() => {
      insert.run(2, 'half-written');
      db.exec('ROLLBACK'); // as SQLite does on such an error
      throw new Error('disk I/O error');
    }),
    inTurn(() => insert.run(3, 'never run').changes),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected', 'rejected'],
  );
  assert.match(String((results[0] as PromiseRejectedResult).reason), /disk I\/O error/);
  assert.deepEqual(db.prepare('SELECT id FROM t').all(), [], 'nothing kept, nothing written outside the turn');
  assert.equal(db.inTransaction, false);
  db.close();
});
