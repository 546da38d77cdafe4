/**
 * `mod97 migrate-to postgres://...` (docs/operations.md, "From SQLite to PostgreSQL"): a SQLite
 * database in use, copied into a fresh PostgreSQL schema; the key still authenticates there, its
 * usage reads the same, payments and imported data came along, and a second copy into the now
 * non-empty target is refused unless --replace is given.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../../src/cli/run.ts';
import { openStore } from '../../src/store/index.ts';
import { startService, testClock } from '../support/app.ts';
import { freePort } from '../support/loopback.ts';
import { pgAdmin, pgUrl, throwawaySchema } from '../support/pg.ts';

const skip = !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set';

async function cli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** What a key's usage says, without the links (each test service has its own port). */
const counted = (body: Record<string, unknown>) => {
  const { used, limit, remaining, tier, basis, key_prefix } = body;
  return { used, limit, remaining, tier, basis, key_prefix };
};

/** The row the command printed for a table: [rows in SQLite, rows in PostgreSQL]. */
function countsOf(out: string, table: string): [number, number] {
  const line = out.split('\n').find((l) => l.startsWith(`${table} `));
  assert.ok(line, `a line for ${table} in:\n${out}`);
  const [, source, target] = line.trim().split(/\s+/);
  return [Number(source), Number(target)];
}

test('a SQLite database moves to PostgreSQL: the key authenticates, usage is equal, every table counted', {
  skip,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-migrate-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const sqlite = `sqlite:${join(dir, 'mod97.db')}`;
  const { url: postgres, schema } = throwawaySchema('mod97_migrate');
  const clock = testClock('2026-11-20T10:00:00Z');

  // The service on SQLite, used: a key with three charged calls (the last with an
  // Idempotency-Key), a payment, an imported dataset.
  const before = await startService({ databaseUrl: sqlite, clock });
  const key = await before.newKey();
  for (const iban of ['DE89370400440532013000', 'GB82WEST12345698765432'])
    assert.equal((await before.call('/v1/iban/validate', { key, json: { iban } })).status, 200);
  const kept = { key, json: { iban: 'FR1420041010050500013M02606' }, headers: { 'idempotency-key': 'order-9' } };
  const answered = await before.call('/v1/iban/validate', kept);
  assert.equal(answered.status, 200);
  const usage = await before.call('/v1/keys/usage', { key });
  assert.equal(usage.status, 200);
  const row = await before.services.keys.authenticate(key);
  assert.ok(row);
  await before.services.store.recordPayment({
    id: 'pay-1',
    network: 'eip155:8453',
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    payer: `0x${'2'.repeat(40)}`,
    payTo: `0x${'1'.repeat(40)}`,
    amountMicros: 2_000,
    txHash: `0x${'a'.repeat(64)}`,
    resourceUrl: 'http://localhost/v1/validate',
    keyId: row.id,
    settledAt: clock(),
  });
  await before.services.store.putDataset(
    { kind: 'gleif-bic-lei', source: 'test file', asOf: '2026-11-01', asOfBasis: null, importedAt: clock(), count: 1 },
    [{ bic: 'DEUTDEFFXXX', lei: '7LTWFZYICNSX8D621K86' }],
  );
  await before.close();

  const ran = await cli(['migrate-to', postgres], { MOD97_DATABASE_URL: sqlite });
  assert.equal(ran.code, 0, ran.err);
  assert.match(ran.out, /^copying sqlite:.* into PostgreSQL at \S+ \(database "[^"]+", user "[^"]+"\)/);
  const keys = countsOf(ran.out, 'api_keys');
  assert.deepEqual(keys, [1, 1]);
  assert.deepEqual(countsOf(ran.out, 'payments'), [1, 1]);
  assert.deepEqual(countsOf(ran.out, 'datasets'), [1, 1]);
  assert.deepEqual(countsOf(ran.out, 'idempotency_keys'), [1, 1]);
  const counters = countsOf(ran.out, 'counters');
  assert.ok(counters[0] > 0 && counters[0] === counters[1], `counters ${counters}`);
  const settings = countsOf(ran.out, 'settings');
  assert.ok(settings[0] > 0 && settings[0] === settings[1], 'the pepper kept in settings came along');
  assert.match(ran.out, /done: \d+ tables copied, every count equal/);
  // SQLite leaves the key's charge period empty; the copy writes it, for the one-statement charge.
  assert.ok(pgUrl);
  const admin = await pgAdmin(pgUrl);
  after(() => admin.end());
  assert.deepEqual(await admin.unsafe(`SELECT charge_period FROM ${schema}.api_keys`), [{ charge_period: 'month' }]);

  // The service on PostgreSQL: the same key, the same usage, the same payment and data.
  const afterMove = await startService({ databaseUrl: postgres, clock });
  assert.deepEqual(counted((await afterMove.call('/v1/keys/usage', { key })).body), counted(usage.body));
  assert.equal(await afterMove.services.store.hasPayment('pay-1'), true);
  assert.equal((await afterMove.services.store.listDatasets())[0]?.kind, 'gleif-bic-lei');
  // The Idempotency-Key's answer came along: its retry is the same answer, not charged.
  const retried = await afterMove.call('/v1/iban/validate', kept);
  assert.deepEqual([retried.headers['idempotent-replayed'], retried.text], ['true', answered.text]);
  const fourth = await afterMove.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' } });
  assert.deepEqual([fourth.status, fourth.headers['x-quota-used']], [200, '4']);
  await afterMove.close();

  // Again into the now non-empty target: refused, and nothing changed there.
  const again = await cli(['migrate-to', postgres], { MOD97_DATABASE_URL: sqlite });
  assert.equal(again.code, 1);
  assert.match(again.err, /the target database is not empty \(.*api_keys: 1, .*\): nothing was copied.*--replace/);
  const store = await openStore(postgres);
  const used = await store.keyById(row.id);
  await store.close();
  assert.ok(used);

  // With --replace the target is emptied first and holds the SQLite copy again (one more call there undone).
  const replaced = await cli(['migrate-to', postgres, '--replace'], { MOD97_DATABASE_URL: sqlite });
  assert.equal(replaced.code, 0, replaced.err);
  assert.deepEqual(countsOf(replaced.out, 'api_keys'), [1, 1]);
  const restarted = await startService({ databaseUrl: postgres, clock });
  assert.deepEqual(counted((await restarted.call('/v1/keys/usage', { key })).body), counted(usage.body));
});

test('migrate-to names what it needs: a postgres:// target and a SQLite source', async () => {
  const wrongTarget = await cli(['migrate-to', 'mysql://x'], { MOD97_DATABASE_URL: 'sqlite:./x.db' });
  assert.equal(wrongTarget.code, 2);
  assert.match(wrongTarget.err, /the target must be a postgres:\/\/ URL/);
  const wrongSource = await cli(['migrate-to', 'postgres://db.example/mod97'], {
    MOD97_DATABASE_URL: 'postgres://db.example/other',
  });
  assert.equal(wrongSource.code, 2);
  assert.match(wrongSource.err, /MOD97_DATABASE_URL must name the SQLite database/);
  const dir = mkdtempSync(join(tmpdir(), 'mod97-migrate-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const missing = await cli(['migrate-to', 'postgres://mod97:pw@127.0.0.1:1/mod97'], {
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'none.db')}`,
  });
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no SQLite database at .*none\.db/);
});

test('an unreachable target is named with host and port, never the password', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-migrate-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const sqlite = `sqlite:${join(dir, 'mod97.db')}`;
  await (await openStore(sqlite)).close();
  const port = await freePort();
  const ran = await cli(['migrate-to', `postgres://mod97:hunter2-secret@127.0.0.1:${port}/mod97`], {
    MOD97_DATABASE_URL: sqlite,
  });
  assert.equal(ran.code, 1);
  assert.match(ran.err, new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${port} .*cannot be reached: connect ECONNREFUSED`));
  assert.doesNotMatch(`${ran.out}\n${ran.err}`, /hunter2-secret/);
  // the target is the command's argument, not MOD97_DATABASE_URL (which names the SQLite source)
  assert.match(ran.err, /Check that the server runs and that the URL given to mod97 migrate-to names it\.$/);
  assert.doesNotMatch(ran.err, /MOD97_DATABASE_URL names it/);
});
