import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { runCli } from '../../src/cli/run.ts';
import { openStore } from '../../src/store/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { dropSchemas, inSchema, newSchemaName, pgAdmin, pgUrl } from '../support/pg.ts';
import { newKeyRow } from '../store/contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-backup-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * Another process committing one row after another into the database until it is killed. Its
 * commits do not wait for the disk (synchronous = NORMAL, in WAL no fsync at commit): with the
 * default FULL, one fsync stalled by the rest of the suite's I/O once lasted the whole backup,
 * and the writer committed nothing while it ran.
 */
function writer(path: string) {
  const script = `const D = require('better-sqlite3'); const db = new D(process.argv[1]);
    db.pragma('busy_timeout = 5000'); db.pragma('synchronous = NORMAL');
    const add = db.prepare("INSERT INTO counters (scope, subject, period, used) VALUES ('test', ?, 'p', 1)");
    let i = 0; add.run('w' + i++); process.stdout.write('writing\\n');
    for (;;) add.run('w' + i++);`;
  const child = spawn(process.execPath, ['-e', script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const started = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { child, started };
}

const countRows = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM counters WHERE scope = 'test'").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

test('backup copies the SQLite database while another process keeps committing, and the copy passes integrity_check', async () => {
  const source = join(dir, 'live.db');
  const store = openSqliteStore(`sqlite:${source}`);
  // Enough pages that the copy takes a while: a dataset of a few megabytes.
  const records = Array.from({ length: 40_000 }, (_, i) => ({ bic: `BANK${i}`, name: `Bank number ${i}`.repeat(4) }));
  await store.putDataset(
    { kind: 'test', source: 'test', asOf: '2026-01-01', asOfBasis: null, importedAt: 0, count: records.length },
    records,
  );
  await store.close();
  const { child, started } = writer(source);
  try {
    await started;
    const before = countRows(source);
    const target = join(dir, 'copy.db');
    const ran = await cli(['backup', target], { MOD97_DATABASE_URL: `sqlite:${source}` });
    const afterBackup = countRows(source);
    assert.equal(ran.code, 0, ran.err);
    assert.match(ran.out, /integrity_check ok/);
    assert.ok(afterBackup > before, 'the writer committed while the backup ran');
    const copy = new Database(target, { readonly: true });
    try {
      assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
      const copied = (copy.prepare("SELECT COUNT(*) AS n FROM counters WHERE scope = 'test'").get() as { n: number }).n;
      assert.ok(copied >= before && copied <= afterBackup, `a snapshot taken during the backup (${copied})`);
      assert.equal(
        (copy.prepare("SELECT record_count AS n FROM datasets WHERE kind = 'test'").get() as { n: number }).n,
        40_000,
      );
    } finally {
      copy.close();
    }
    assert.equal(statSync(target).mode & 0o777, 0o600, 'the copy is readable by its owner only');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('partial')),
      [],
      'no partial file is left',
    );
  } finally {
    child.kill();
  }
});

test('backup refuses to overwrite a file, and names a missing database', async () => {
  const source = join(dir, 'small.db');
  (await openSqliteStore(`sqlite:${source}`)).close();
  const target = join(dir, 'once.db');
  // even under a umask that would leave a new file readable by everyone
  const umask = process.umask(0o000);
  try {
    assert.equal((await cli(['backup', target], { MOD97_DATABASE_URL: `sqlite:${source}` })).code, 0);
  } finally {
    process.umask(umask);
  }
  assert.equal(statSync(target).mode & 0o777, 0o600);
  const again = await cli(['backup', target], { MOD97_DATABASE_URL: `sqlite:${source}` });
  assert.equal(again.code, 1);
  assert.match(again.err, /exists already/);
  const missing = await cli(['backup', join(dir, 'x.db')], { MOD97_DATABASE_URL: `sqlite:${join(dir, 'none.db')}` });
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no database at .*none\.db/);
  assert.equal(existsSync(join(dir, 'x.db')), false);
});

test('backup into a folder that does not exist names the folder, not a temporary file', async () => {
  const source = join(dir, 'small-2.db');
  (await openSqliteStore(`sqlite:${source}`)).close();
  const folder = join(dir, 'no-such-folder');
  const ran = await cli(['backup', join(folder, 'x.db')], { MOD97_DATABASE_URL: `sqlite:${source}` });
  assert.equal(ran.code, 1);
  assert.equal(
    ran.err,
    `error: the folder ${folder} does not exist: create it first (mkdir -p ${folder}); nothing was written`,
  );
  assert.equal(existsSync(folder), false);
});

test('backup of a PostgreSQL database points to pg_dump and writes nothing', async () => {
  const target = join(dir, 'pg.dump');
  for (const url of [
    'postgres://mod97:secret@db.example/mod97',
    'postgres://mod97@db.example/mod97?password=secret&sslpassword=secret2&max=5',
  ]) {
    const ran = await cli(['backup', target], { MOD97_DATABASE_URL: url });
    assert.equal(ran.code, 2);
    assert.match(ran.err, /pg_dump .*'postgres:\/\/mod97@db\.example\/mod97'/);
    assert.doesNotMatch(ran.err, /secret/, 'no password, wherever the URL holds it');
    assert.equal(existsSync(target), false);
  }
});

const hasPgDump =
  spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;

test('on PostgreSQL, the pg_dump command mod97 backup prints runs as printed, on a URL with ?max= and ?schema=', {
  skip: (!pgUrl && 'MOD97_TEST_POSTGRES_URL is not set') || (!hasPgDump && 'pg_dump is not installed'),
}, async () => {
  const schema = newSchemaName('mod97_backup');
  after(() => dropSchemas(schema));
  const url = new URL(inSchema(schema));
  url.searchParams.set('max', '20');
  const store = await openStore(url.toString());
  await store.insertKey(newKeyRow());
  await store.close();
  const ran = await cli(['backup', join(dir, 'pg.dump')], { MOD97_DATABASE_URL: url.toString() });
  assert.equal(ran.code, 2);
  const command = /^\s*(pg_dump .*)$/m.exec(ran.err)?.[1] ?? '';
  assert.match(command, new RegExp(`--schema=${schema}`), ran.err);
  const cwd = mkdtempSync(join(dir, 'dump-'));
  // as an operator pastes it: in a shell, with MOD97_DATABASE_URL set as the service has it
  const dumped = spawnSync('sh', ['-c', command], {
    cwd,
    env: { ...process.env, MOD97_DATABASE_URL: url.toString() },
    encoding: 'utf8',
  });
  assert.equal(dumped.status, 0, `${command}\n${dumped.stderr}`);
  assert.ok(statSync(join(cwd, 'mod97.dump')).size > 0);
  const listed = spawnSync('pg_restore', ['--list', join(cwd, 'mod97.dump')], { encoding: 'utf8' });
  assert.match(listed.stdout, new RegExp(`TABLE ${schema} schema_migrations `));
});

test('on PostgreSQL, the pg_dump and pg_restore commands of docs/operations.md bring the keys back', {
  skip: (!pgUrl && 'MOD97_TEST_POSTGRES_URL is not set') || (!hasPgDump && 'pg_dump is not installed'),
}, async () => {
  const run = promisify(execFile);
  const schema = newSchemaName('mod97_backup');
  after(() => dropSchemas(schema));
  const url = inSchema(schema);
  const store = await openStore(url);
  const key = newKeyRow();
  await store.insertKey(key);
  await store.close();
  const dump = join(dir, 'mod97.dump');
  await run('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${dump}`, pgUrl as string]);
  const admin = await pgAdmin(pgUrl as string);
  await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
  await run('pg_restore', [`--dbname=${pgUrl}`, '--no-owner', dump]);
  const restored = await openStore(url);
  try {
    assert.equal((await restored.keyByHash(key.keyHash))?.id, key.id);
  } finally {
    await restored.close();
  }
});
