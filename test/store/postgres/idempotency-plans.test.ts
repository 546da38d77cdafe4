/**
 * Idempotency-Key statements on PostgreSQL (when MOD97_TEST_POSTGRES_URL is set) never read the
 * whole table by a plan made while it was nearly empty. A named statement's plan may be cached
 * for its connection (a generic plan); one made on a new, empty table joined it by a hash over a
 * sequential scan, which under load read tens of thousands of entries for each batch of answers.
 * The store's own role here is set to use cached plans always, the planner's choice at its worst.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { openPostgresStore } from '../../../src/store/postgres/index.ts';
import type { Store } from '../../../src/store/types.ts';
import { inSchema, newSchemaName, pgAdmin, pgUrl } from '../../support/pg.ts';
import { ANSWER, newReservation } from '../idempotency-contract.ts';

/** The time of the entries added behind the store's back (newReservation's). */
const NOW = 1_800_000_000_000;
/** Entries written behind the store's back once its plans are made: each full read would count them all. */
const GROWN_TO = 50_000;

/** A first request of each kind the store serves: reserved and answered, replayed, reserved and let go. */
async function useEveryStatement(store: Store): Promise<void> {
  const answered = Array.from({ length: 8 }, () => newReservation());
  for (const claim of await Promise.all(answered.map((r) => store.reserveIdempotency(r))))
    assert.equal(claim.state, 'reserved');
  for (const kept of await Promise.all(answered.map((r) => store.completeIdempotency(r.scope, r.key, r.token, ANSWER))))
    assert.equal(kept, true);
  const replay = await store.reserveIdempotency({ ...answered[0], token: randomUUID() });
  assert.deepEqual(replay, { state: 'done', answer: ANSWER });
  const letGo = newReservation();
  assert.equal((await store.reserveIdempotency(letGo)).state, 'reserved');
  await store.releaseIdempotency(letGo.scope, letGo.key, letGo.token);
}

describe('Idempotency-Key statements on a table grown since they were planned (postgres)', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, () => {
  test(`after ${GROWN_TO.toLocaleString('en')} entries more, no statement reads the table whole`, async (t) => {
    const admin = await pgAdmin(pgUrl!);
    const [{ may }] = await admin.unsafe(
      'SELECT rolsuper OR rolcreaterole AS may FROM pg_roles WHERE rolname = current_user',
    );
    if (!may) {
      await admin.end();
      return t.skip('the role of MOD97_TEST_POSTGRES_URL may not create roles');
    }
    const role = newSchemaName('mod97_plans');
    const password = randomBytes(12).toString('hex');
    const [{ db }] = await admin.unsafe('SELECT current_database() AS db');
    await admin.unsafe(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await admin.unsafe(`GRANT CREATE ON DATABASE "${db}" TO ${role}`);
    await admin.unsafe(`ALTER ROLE ${role} SET plan_cache_mode = force_generic_plan`);
    t.after(async () => {
      await admin.unsafe(`DROP SCHEMA IF EXISTS ${role} CASCADE`);
      await admin.unsafe(`DROP OWNED BY ${role}`);
      await admin.unsafe(`DROP ROLE ${role}`);
      await admin.end();
    });
    const asRole = new URL(pgUrl!);
    asRole.username = role;
    asRole.password = password;
    const store = await openPostgresStore(inSchema(role, asRole.toString()));
    // No statistics taken meanwhile: they would make every connection plan its statements again.
    await admin.unsafe(`ALTER TABLE ${role}.idempotency_keys SET (autovacuum_enabled = false)`);

    await useEveryStatement(store); // each statement planned on an empty table
    await admin.unsafe(
      `INSERT INTO ${role}.idempotency_keys (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at)
        SELECT 'key:' || (i % 1000), md5(i::text), 'f', md5(i::text), 200, 'application/json', '{}', ${NOW}, ${NOW + 86_400_000}
        FROM generate_series(1, ${GROWN_TO}) i`,
    );
    await useEveryStatement(store);

    // A session's table counts are flushed when it ends: wait for each of the store's to end.
    const sessions = await admin.unsafe('SELECT pid FROM pg_stat_activity WHERE usename = $1', [role]);
    await store.close();
    for (const { pid } of sessions) await admin.unsafe('SELECT pg_terminate_backend($1, 10000)', [pid]);
    const [read] = await admin.unsafe(
      `SELECT seq_scan, seq_tup_read FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'idempotency_keys'`,
      [role],
    );
    assert.ok(
      Number(read.seq_tup_read) < GROWN_TO,
      `${read.seq_tup_read} entries read by ${read.seq_scan} sequential scans of the table`,
    );
  });
});
