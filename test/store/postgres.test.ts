/**
 * The store contract against PostgreSQL, when MOD97_TEST_POSTGRES_URL is set. Each run works
 * in schemas of its own, dropped afterwards, so runs never collide.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { chargePeriodOf } from '../../src/records.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { dropSchemas, inSchema, newSchemaName, pgAdmin, pgUrl } from '../support/pg.ts';
import { storeContract } from './contract.ts';

const url = pgUrl;

if (!url) {
  test('store contract: postgres', { skip: 'MOD97_TEST_POSTGRES_URL is not set' }, () => {});
} else {
  const schemas: string[] = [];
  const newSchema = () => {
    schemas.push(newSchemaName());
    return schemas[schemas.length - 1];
  };
  const admin = await pgAdmin(url);
  after(async () => {
    await admin.end();
    await dropSchemas(...schemas);
  });

  storeContract('postgres', () => openPostgresStore(inSchema(newSchema())));

  test('every key the contract wrote, inserted or changed, stores the charge period of its plan', async () => {
    const rows = [];
    for (const schema of schemas)
      rows.push(
        ...(await admin.unsafe(
          `SELECT basis, lifetime_period AS "lifetimePeriod", charge_period AS "chargePeriod" FROM ${schema}.api_keys`,
        )),
      );
    assert.ok(rows.length >= 10, `${rows.length} keys`);
    const wrong = rows.filter((r) => r.chargePeriod !== chargePeriodOf(r as Parameters<typeof chargePeriodOf>[0]));
    assert.deepEqual(wrong, []);
  });

  test('four processes starting at once on an empty schema apply each migration once', async () => {
    const schema = newSchema();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(inSchema(schema))));
    await Promise.all(stores.map((s) => s.close()));
    const rows = await admin.unsafe(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
    assert.deepEqual(
      rows.map((r) => r.version),
      MIGRATIONS.map((m) => m.version),
    );
  });

  test('20 parallel wrong codes count 5 attempts; the right code is then refused until a new challenge', async () => {
    const store = await openPostgresStore(inSchema(newSchema()));
    after(() => store.close());
    const now = Date.now();
    const challenge = {
      purpose: 'claim' as const,
      subject: 'key-1',
      emailHash: 'mail-1',
      codeHash: 'right',
      createdAt: now,
      expiresAt: now + 900_000,
    };
    await store.putChallenge(challenge);
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.tryCode('claim', 'key-1', 'mail-1', `wrong-${i}`, now, 5)),
    );
    assert.equal(guesses.filter((g) => g === 'wrong_code').length, 5);
    assert.equal(guesses.filter((g) => g === 'too_many_attempts').length, 15);
    assert.equal(await store.tryCode('claim', 'key-1', 'mail-1', 'right', now, 5), 'too_many_attempts');
    await store.putChallenge(challenge);
    const rights = await Promise.all([1, 2, 3].map(() => store.tryCode('claim', 'key-1', 'mail-1', 'right', now, 5)));
    assert.deepEqual(rights.sort(), ['no_challenge', 'no_challenge', 'ok'], 'only one request wins the right code');
    await store.putChallenge({ ...challenge, expiresAt: now - 1 });
    assert.equal(await store.tryCode('claim', 'key-1', 'mail-1', 'right', now, 5), 'expired');
    assert.equal(await store.tryCode('claim', 'key-1', 'other-mail', 'right', now, 5), 'no_challenge');
  });

  test("a reservation that took over the same request's unanswered entry, sent again across a lost connection, is still resumed", async () => {
    const store = await openPostgresStore(inSchema(newSchema()));
    after(() => store.close());
    const left = {
      scope: 'key:1',
      key: 'idem-1',
      fingerprint: 'POST /v1/iban/validate body',
      token: randomUUID(),
      now: 1_000_000,
      expiresAt: 1_000_000 + 86_400_000,
      staleBefore: 0,
    };
    assert.deepEqual(await store.reserveIdempotency(left), { state: 'reserved' });
    const retry = { ...left, token: randomUUID(), now: left.now + 61_000, staleBefore: left.now + 1_000 };
    assert.deepEqual(await store.reserveIdempotency(retry), { state: 'resumed' });
    // The takeover committed but its answer was lost: the driver sends the same statement again.
    assert.deepEqual(await store.reserveIdempotency(retry), { state: 'resumed' });
    // A reservation made afresh and sent again stays reserved.
    const fresh = { ...left, key: 'idem-2', token: randomUUID() };
    assert.deepEqual(await store.reserveIdempotency(fresh), { state: 'reserved' });
    assert.deepEqual(await store.reserveIdempotency(fresh), { state: 'reserved' });
  });

  test('a schema name that is not a plain SQL name is refused', async () => {
    await assert.rejects(openPostgresStore(inSchema('x; DROP TABLE y')), /schema/);
  });
}
