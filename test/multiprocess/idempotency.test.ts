/**
 * Idempotency-Key across two real mod97 processes sharing one PostgreSQL schema: a request held
 * in progress on one process makes the same request on the other answer 409, and once the first
 * is answered, the other gets its answer again, charged once. Runs when MOD97_TEST_POSTGRES_URL is set.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { monthOf } from '../../src/clock.ts';
import { keyedHash, newSecret } from '../../src/keys/secret.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import type { CounterRef, Store } from '../../src/store/types.ts';
import { newKeyRow } from '../store/contract.ts';
import { call } from '../support/http.ts';
import { dropSchemas, inSchema, newSchemaName, type PgAdmin, pgAdmin, pgUrl } from '../support/pg.ts';
import { startProcess, type Mod97Process } from './processes.ts';

const PEPPER = randomBytes(32).toString('hex');

describe('Idempotency-Key on two processes sharing PostgreSQL', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, () => {
  const schema = newSchemaName('mod97_idem');
  const databaseUrl = pgUrl ? inSchema(schema) : '';
  let processes: Mod97Process[] = [];
  let store: Store;

  before(async () => {
    store = await openPostgresStore(databaseUrl);
    processes = await Promise.all(
      [1, 2].map(() =>
        startProcess({ MOD97_DATABASE_URL: databaseUrl, MOD97_KEY_PEPPER: PEPPER, MOD97_MX_CHECK: 'off' }),
      ),
    );
  });

  after(async () => {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await store?.close();
    await dropSchemas(schema);
  });

  test('the same request on both while the first is being answered: one is served, the other is 409, then replayed', async () => {
    const { secret } = newSecret();
    const key = newKeyRow({ keyHash: keyedHash(PEPPER, secret), tier: 'pro', limit: 10_000, createdAt: Date.now() });
    await store.insertKey(key);
    const counter: CounterRef = { scope: 'key', subject: key.id, period: monthOf(Date.now()) };
    assert.equal(await store.admit(counter, 1, 10_000), 1);

    // Holding the key's counter row keeps the first request between its reservation and its charge.
    const holder = await pgAdmin(databaseUrl.replace(/[?&]schema=.*$/, ''));
    after(() => holder.end());
    await holder.unsafe('BEGIN');
    await holder.unsafe(`SELECT used FROM ${schema}.counters WHERE scope = 'key' AND subject = $1 FOR UPDATE`, [
      key.id,
    ]);
    const idem = randomUUID();
    const request = { key: secret, json: { ibans: ['DE89370400440532013000', 'GB82WEST12345698765432'] } };
    const headers = { 'idempotency-key': idem };
    const first = call(processes[0].url, '/v1/iban/batch', { ...request, headers });
    await reserved(holder, schema, keyedHash(PEPPER, idem)); // stored only as its keyed hash

    const second = await call(processes[1].url, '/v1/iban/batch', { ...request, headers });
    assert.equal(second.status, 409, second.text);
    assert.equal(second.body.error, 'idempotency_in_progress');
    assert.equal(second.headers['retry-after'], '1');

    await holder.unsafe('COMMIT');
    const served = await first;
    assert.equal(served.status, 200, served.text);
    assert.equal(served.headers['idempotent-replayed'], undefined);

    const replayed = await call(processes[1].url, '/v1/iban/batch', { ...request, headers });
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replayed.body, served.body);
    assert.equal(await store.read(counter), 3, 'the batch of two, charged once');
  });
});

/** Resolves once the request's reservation is committed (each query is one look; no fixed sleep). */
async function reserved(admin: PgAdmin, schema: string, idemHash: string): Promise<void> {
  for (;;) {
    const rows = await admin.unsafe(`SELECT 1 FROM ${schema}.idempotency_keys WHERE idem_key = $1`, [idemHash]);
    if (rows.length) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
