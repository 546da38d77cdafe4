/**
 * Idempotency-Key entries on PostgreSQL (when MOD97_TEST_POSTGRES_URL is set): reservations, and
 * answers, made together go out in one statement, committed without waiting for the disk (the
 * charge after a reservation waits for it); a statement that fails fails only the request it
 * fails for. Triggers note each statement and stand in for a row the database refuses.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { pgUrl, storeSuite } from '../../support/pg.ts';
import { ANSWER, newReservation } from '../idempotency-contract.ts';

const REFUSED = 'refused by the database';

describe('Idempotency-Key statements in batches (postgres)', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, () => {
  const suite = storeSuite();
  before(async () => {
    // Notes each statement that writes an entry or a counter (an upsert fires as an insert and an
    // update), with its transaction and whether its commit waits for the disk; and refuses any
    // entry carrying REFUSED.
    await suite.admin.unsafe(`CREATE TABLE statements (id serial, xid bigint, tbl text, sync text);
      CREATE FUNCTION note_statement() RETURNS trigger AS $$
        BEGIN INSERT INTO statements (xid, tbl, sync)
          VALUES (txid_current(), TG_TABLE_NAME, current_setting('synchronous_commit')); RETURN NULL;
        END $$ LANGUAGE plpgsql;
      CREATE TRIGGER note_statement AFTER INSERT OR UPDATE ON idempotency_keys
        FOR EACH STATEMENT EXECUTE FUNCTION note_statement();
      CREATE TRIGGER note_statement AFTER INSERT OR UPDATE ON counters
        FOR EACH STATEMENT EXECUTE FUNCTION note_statement();
      CREATE FUNCTION refuse_row() RETURNS trigger AS $$
        BEGIN IF NEW.fingerprint = '${REFUSED}' OR NEW.body = '${REFUSED}' THEN RAISE EXCEPTION 'refused'; END IF;
        RETURN NEW; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_row BEFORE INSERT OR UPDATE ON idempotency_keys
        FOR EACH ROW EXECUTE FUNCTION refuse_row();`);
  });

  /** The transactions that wrote entries or counters while `run` ran, in order, with their synchronous_commit. */
  async function writesOf(run: () => Promise<void>): Promise<Array<{ tbl: string; sync: string }>> {
    await suite.admin.unsafe('DELETE FROM statements');
    await run();
    const rows = await suite.admin.unsafe('SELECT tbl, sync FROM statements GROUP BY xid, tbl, sync ORDER BY min(id)');
    return rows as Array<{ tbl: string; sync: string }>;
  }

  test('20 requests reserve, then keep their answers, in a transaction or two each way', async () => {
    const asked = Array.from({ length: 20 }, () => newReservation());
    const reserving = await writesOf(async () => {
      const claims = await Promise.all(asked.map((r) => suite.store.reserveIdempotency(r)));
      assert.deepEqual(new Set(claims.map((c) => c.state)), new Set(['reserved']));
    });
    assert.ok(reserving.length <= 2, `${reserving.length} transactions`);
    const keeping = await writesOf(async () => {
      const kept = await Promise.all(
        asked.map((r) => suite.store.completeIdempotency(r.scope, r.key, r.token, ANSWER)),
      );
      assert.deepEqual(
        kept,
        asked.map(() => true),
      );
    });
    assert.ok(keeping.length <= 2, `${keeping.length} transactions`);
    for (const r of asked)
      assert.deepEqual(await suite.store.reserveIdempotency({ ...r, token: randomUUID() }), {
        state: 'done',
        answer: ANSWER,
      });
  });

  test('entries commit without waiting for the disk; the charge after them waits, and so makes them durable', async () => {
    const r = newReservation();
    const counter = { scope: 'key' as const, subject: randomUUID(), period: '2027-01' };
    const written = await writesOf(async () => {
      assert.deepEqual(await suite.store.reserveIdempotency(r), { state: 'reserved' });
      assert.equal(await suite.store.admit(counter, 1, 10, r), 1);
      assert.equal(await suite.store.completeIdempotency(r.scope, r.key, r.token, ANSWER), true);
    });
    assert.deepEqual(written, [
      { tbl: 'idempotency_keys', sync: 'off' },
      { tbl: 'counters', sync: 'on' },
      { tbl: 'idempotency_keys', sync: 'off' },
    ]);
  });

  test('a reservation the database refuses fails only its own request; the others of its batch are reserved', async () => {
    const asked = Array.from({ length: 10 }, (_, i) => newReservation(i === 4 ? { fingerprint: REFUSED } : {}));
    const claims = await Promise.allSettled(asked.map((r) => suite.store.reserveIdempotency(r)));
    assert.equal(claims[4].status, 'rejected');
    for (const [i, claim] of claims.entries())
      if (i !== 4) assert.deepEqual(claim, { status: 'fulfilled', value: { state: 'reserved' } });
  });

  test('an answer the database refuses fails only its own request; the others of its batch are kept', async () => {
    const asked = Array.from({ length: 10 }, () => newReservation());
    await Promise.all(asked.map((r) => suite.store.reserveIdempotency(r)));
    const kept = await Promise.allSettled(
      asked.map((r, i) =>
        suite.store.completeIdempotency(r.scope, r.key, r.token, i === 7 ? { ...ANSWER, body: REFUSED } : ANSWER),
      ),
    );
    assert.equal(kept[7].status, 'rejected');
    for (const [i, one] of kept.entries()) if (i !== 7) assert.deepEqual(one, { status: 'fulfilled', value: true });
    // The refused one is still held, unanswered: its retry is in progress, never a second first request.
    const retry = asked[7];
    assert.deepEqual(await suite.store.reserveIdempotency({ ...retry, token: randomUUID() }), { state: 'in_progress' });
  });
});
