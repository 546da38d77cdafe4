import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { storeContract } from './contract.ts';

storeContract('sqlite', async () => openSqliteStore('sqlite::memory:'));

test('a new database file, and its -wal and -shm, are readable by the owner alone, whatever the umask', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-mode-'));
  const before = process.umask(0o022);
  try {
    const path = join(dir, 'mod97.db');
    const store = openSqliteStore(`sqlite:${path}`);
    await store.keyByHash('0'.repeat(64)); // a read: the -shm exists
    for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
    await store.close();
  } finally {
    process.umask(before);
    rmSync(dir, { recursive: true, force: true });
  }
});
