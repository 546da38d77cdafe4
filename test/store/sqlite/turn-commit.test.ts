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

test('a write whose error made SQLite roll the whole transaction back fails alone: the turn runs again without it', async () => {
  // SQLITE_FULL, SQLITE_IOERR and the like may roll the transaction back by themselves.
  const db = table();
  const inTurn = turnCommit(db);
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  const runs = [0, 0, 0];
  const counted = (i: number, id: number, v: string) => () => {
    runs[i]++;
    return insert.run(id, v).changes;
  };
  const results = await Promise.allSettled([
    inTurn(counted(0, 1, 'first')),
    inTurn(() => {
      runs[1]++;
      insert.run(2, 'half-written');
      db.exec('ROLLBACK'); // as SQLite does on such an error
      throw new Error('disk I/O error');
    }),
    inTurn(counted(2, 3, 'third')),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((results[1] as PromiseRejectedResult).reason), /disk I\/O error/);
  assert.deepEqual(runs, [2, 1, 1], 'the failed write is not run again; the one rolled back with it is');
  assert.deepEqual(db.prepare('SELECT id FROM t ORDER BY id').all(), [{ id: 1 }, { id: 3 }]);
  db.close();
});

test('a turn whose transaction SQLite rolls back while it is run again fails whole; nothing is written outside it', async () => {
  const db = table();
  const inTurn = turnCommit(db);
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  let secondRuns = 0;
  const results = await Promise.allSettled([
    inTurn(() => {
      if (secondRuns++ === 1) {
        db.exec('ROLLBACK'); // the I/O error strikes on the second run
        throw new Error('disk I/O error');
      }
      return insert.run(1, 'first').changes;
    }),
    inTurn(() => insert.run(1, 'duplicate id').changes), // fails: the turn is run again
    inTurn(() => insert.run(3, 'never written alone').changes),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected', 'rejected'],
  );
  assert.deepEqual(db.prepare('SELECT id FROM t').all(), []);
  assert.equal(db.inTransaction, false);
  db.close();
});
