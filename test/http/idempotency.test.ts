/** docs/api.md, "Safe retries (Idempotency-Key)": a retried metered POST is answered once and charged once. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { readConfig } from '../../src/config.ts';
import { errorHandler } from '../../src/http/errors.ts';
import { registerPipeline } from '../../src/http/pipeline.ts';
import { newSecret } from '../../src/keys/secret.ts';
import { buildServices } from '../../src/services.ts';
import { openStore } from '../../src/store/index.ts';
import { startService, testClock, type TestService } from '../support/app.ts';
import { pgAdmin, pgUrl, throwawaySchema } from '../support/pg.ts';

const IBAN = 'DE89370400440532013000';
const OTHER = 'GB82WEST12345698765432';
const withKey = (idem: string, key?: string) => ({ key, headers: { 'idempotency-key': idem } });

async function used(svc: TestService, key: string): Promise<number> {
  return (await svc.call('/v1/keys/usage', { key })).body.used;
}

describe('Idempotency-Key on the metered POST routes', () => {
  test('a replay gives the first answer again with Idempotent-Replayed, and costs nothing', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const idem = randomUUID();
    const first = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey(idem, key) });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(first.headers['x-quota-remaining'], '24');
    const again = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey(idem, key) });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, first.text, 'the very same answer');
    assert.equal(again.headers['x-quota-remaining'], '24', 'the replay is not charged');
    assert.equal(await used(svc, key), 1);

    // A batch, the route whose retries matter most: 3 units once.
    const batch = { ibans: [IBAN, OTHER, 'XX00'] };
    const b1 = await svc.call('/v1/iban/batch', { json: batch, ...withKey('batch-1', key) });
    const b2 = await svc.call('/v1/iban/batch', { json: batch, ...withKey('batch-1', key) });
    assert.equal(b1.status, 200, b1.text);
    assert.equal(b2.headers['idempotent-replayed'], 'true');
    assert.deepEqual(b2.body, b1.body);
    assert.equal(await used(svc, key), 4);
  });

  test('without a key the network is the scope, and a replay uses no trial call', async () => {
    const svc = await startService();
    const idem = randomUUID();
    const first = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey(idem), from: '127.0.0.31' });
    const again = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey(idem), from: '127.0.0.31' });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    // The replay shows the trial's balance as it is now, as a keyed replay shows the key's.
    assert.deepEqual([again.headers['ratelimit-limit'], again.headers['ratelimit-remaining']], ['25', '24']);
    assert.match(String(again.headers['ratelimit-reset']), /^[1-9][0-9]*$/);
    const usage = await svc.call('/v1/keys/usage', { from: '127.0.0.31' });
    assert.equal(usage.body.used, 1, usage.text);
    // Another network with the same Idempotency-Key is another request.
    const elsewhere = await svc.call('/v1/iban/validate', {
      json: { iban: OTHER },
      ...withKey(idem),
      from: '127.0.0.32',
    });
    assert.equal(elsewhere.status, 200, elsewhere.text);
    assert.equal(elsewhere.headers['idempotent-replayed'], undefined);
  });

  test('the same key with another body or path is 422 idempotency_key_reused, and charged nothing', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('k-1', key) });
    const body = await svc.call('/v1/iban/validate', { json: { iban: OTHER }, ...withKey('k-1', key) });
    assert.equal(body.status, 422, body.text);
    assert.equal(body.body.error, 'idempotency_key_reused');
    assert.match(body.body.message, /another request/);
    const path = await svc.call('/v1/iban/batch', { json: { ibans: [IBAN] }, ...withKey('k-1', key) });
    assert.equal(path.status, 422, path.text);
    assert.equal(await used(svc, key), 1);
    // Another API key has keys of its own.
    const other = await svc.newKey('127.0.0.2');
    const theirs = await svc.call('/v1/iban/validate', { json: { iban: OTHER }, ...withKey('k-1', other) });
    assert.equal(theirs.status, 200, theirs.text);
  });

  test('a refused call is not kept: its retry is judged afresh, and a corrected body may use the key', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const long = { iban: 'DE'.padEnd(80, '0') };
    const refused = await svc.call('/v1/iban/validate', { json: long, ...withKey('k-400', key) });
    assert.equal(refused.status, 400, refused.text);
    const again = await svc.call('/v1/iban/validate', { json: long, ...withKey('k-400', key) });
    assert.equal(again.status, 400, again.text);
    assert.equal(again.headers['idempotent-replayed'], undefined, 'a 4xx is not replayed');
    const fixed = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('k-400', key) });
    assert.equal(fixed.status, 200, fixed.text);
    const fixedAgain = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('k-400', key) });
    assert.equal(fixedAgain.headers['idempotent-replayed'], 'true', 'the 2xx is kept');
    assert.equal(await used(svc, key), 1);
  });

  test('an ill-formed Idempotency-Key is 400 invalid_request and charged nothing', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const bad of ['', 'has space', 'x'.repeat(256), 'ключ']) {
      const r = await svc.call('/v1/iban/validate', {
        json: { iban: IBAN },
        key,
        headers: { 'idempotency-key': Buffer.from(bad).toString('latin1') },
      });
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
      assert.equal(r.body.error, 'invalid_request');
      assert.match(r.body.message, /Idempotency-Key/);
    }
    const longest = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('~'.repeat(255), key) });
    assert.equal(longest.status, 200, longest.text);
    assert.equal(await used(svc, key), 1);
  });

  test('a retry after the client cut the connection before the answer is charged once', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const idem = randomUUID();
    const body = JSON.stringify({ ibans: [IBAN, OTHER] });
    const arrived = new Promise<void>((resolve) => svc.app.server.once('request', () => resolve()));
    const { port } = new URL(svc.url);
    const socket = connect({ port: Number(port), host: '127.0.0.1' });
    socket.on('error', () => {});
    socket.write(
      `POST /v1/iban/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nIdempotency-Key: ${idem}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    let answered = false;
    socket.on('data', () => (answered = true));
    await arrived;
    socket.destroy();
    assert.equal(answered, false, 'the client never saw the answer');

    // The retry: while the first is still being answered it is told so (409); then it gets that answer.
    let retry = await svc.call('/v1/iban/batch', { raw: body, ...jsonWith(idem, key) });
    while (retry.status === 409) {
      assert.equal(retry.body.error, 'idempotency_in_progress');
      assert.equal(retry.headers['retry-after'], '1');
      await new Promise((resolve) => setImmediate(resolve));
      retry = await svc.call('/v1/iban/batch', { raw: body, ...jsonWith(idem, key) });
    }
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers['idempotent-replayed'], 'true', 'the first request was served, and its answer kept');
    assert.equal(retry.body.count, 2);
    assert.equal(await used(svc, key), 2, 'two IBANs, charged once');
  });

  test('expired entries are purged, and after 24 hours a key starts afresh', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mod97-idem-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'store.db');
    const clock = testClock('2026-11-21T12:00:00Z');
    const svc = await startService({ clock, databaseUrl: `sqlite:${file}` });
    const key = await svc.newKey();
    // The store keeps the keyed hash of each Idempotency-Key, never the key itself.
    const hashOf = (k: string) => svc.services.keys.hash(k);
    const rows = () => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT idem_key AS k FROM idempotency_keys ORDER BY k').all() as { k: string }[]).map(
          (r) => r.k,
        );
      } finally {
        db.close();
      }
    };
    await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('old', key) });
    clock.advance(23 * 3_600_000);
    const within = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('old', key) });
    assert.equal(within.headers['idempotent-replayed'], 'true');
    assert.deepEqual(rows(), [hashOf('old')]);
    clock.advance(2 * 3_600_000);
    await svc.call('/v1/iban/validate', { json: { iban: OTHER }, ...withKey('new', key) });
    assert.deepEqual(rows(), [hashOf('new')], 'the expired entry is gone');
    const afresh = await svc.call('/v1/iban/validate', { json: { iban: OTHER }, ...withKey('old', key) });
    assert.equal(afresh.status, 200, afresh.text);
    assert.equal(afresh.headers['idempotent-replayed'], undefined);
  });
});

/** What the store was given to keep for Idempotency-Keys, in bytes (every column's bytes; PostgreSQL may compress them). */
async function storedBytes(databaseUrl: string): Promise<{ rows: number; bytes: number; text: string }> {
  const columns = ['scope', 'idem_key', 'fingerprint', 'token', 'content_type', 'body'];
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      const sum = columns.map((c) => `COALESCE(length(CAST(${c} AS BLOB)), 0)`).join(' + ');
      const row = db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(${sum}), 0) AS bytes FROM idempotency_keys`).get() as {
        n: number;
        bytes: number;
      };
      const all = db.prepare('SELECT * FROM idempotency_keys').all();
      return { rows: row.n, bytes: row.bytes, text: JSON.stringify(all) };
    } finally {
      db.close();
    }
  }
  const admin = await pgAdmin(databaseUrl.replace(/[?&]schema=.*$/, ''));
  try {
    const schema = /[?&]schema=([^&]+)/.exec(databaseUrl)?.[1];
    const sum = columns.map((c) => `COALESCE(octet_length(${c}), 0)`).join(' + ');
    const [row] = await admin.unsafe(
      `SELECT COUNT(*)::int AS n, COALESCE(SUM(${sum}), 0)::bigint AS bytes FROM ${schema}.idempotency_keys`,
    );
    const all = await admin.unsafe(`SELECT * FROM ${schema}.idempotency_keys`);
    return { rows: Number(row.n), bytes: Number(row.bytes), text: JSON.stringify(all) };
  } finally {
    await admin.end();
  }
}

/** A text holding `n` IBANs: its extract answer is about 870 bytes an IBAN (100 → ~87 KB, over the 64 KiB kept). */
const ibanText = (n: number, seed = 0) =>
  Array.from({ length: n }, (_, i) => (i === 0 ? `ref ${seed}: ${IBAN}` : IBAN)).join(' ');

const MiB = 1024 * 1024;

for (const [engine, skip] of [
  ['SQLite', false],
  ['PostgreSQL', pgUrl ? false : 'MOD97_TEST_POSTGRES_URL is not set'],
] as const) {
  describe(`what Idempotency-Keys keep (docs/api.md, Safe retries), ${engine}`, { skip }, () => {
    const databaseUrl = () => {
      if (engine === 'PostgreSQL') return throwawaySchema('mod97_idem').url;
      const dir = mkdtempSync(join(tmpdir(), 'mod97-idem-'));
      after(() => rmSync(dir, { recursive: true, force: true }));
      return `sqlite:${join(dir, 'store.db')}`;
    };

    test('an API key as the Idempotency-Key is 400 key_in_idempotency_key, charged nothing, and never stored', async () => {
      const db = databaseUrl();
      const svc = await startService({ databaseUrl: db });
      const key = await svc.newKey();
      const other = await svc.newKey('127.0.0.2');
      for (const idem of [other, key, `retry-${other}`]) {
        const r = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey(idem, key) });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.error, 'key_in_idempotency_key');
        assert.match(r.body.message, /Never send an API key as the Idempotency-Key/);
        assert.equal(r.text.includes(idem), false, 'the key is not echoed');
      }
      assert.equal(await used(svc, key), 0);
      assert.equal((await storedBytes(db)).rows, 0);
    });

    test('the store keeps a keyed hash of the Idempotency-Key, never the key itself', async () => {
      const db = databaseUrl();
      const svc = await startService({ databaseUrl: db });
      const key = await svc.newKey();
      const idem = `my-idempotency-${randomUUID()}`;
      await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey(idem, key) });
      const again = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey(idem, key) });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const stored = await storedBytes(db);
      assert.equal(stored.rows, 1);
      assert.equal(stored.text.includes(idem), false, 'no column holds the Idempotency-Key');
      assert.ok(stored.text.includes(svc.services.keys.hash(idem)), 'its keyed hash stands for it');
    });

    test('a retry after the process died between the charge and keeping the answer is answered, and not charged again', async () => {
      const db = databaseUrl();
      const clock = testClock();
      const first = await startService({ databaseUrl: db, clock });
      const key = await first.newKey();
      // The first process charges the call, then dies before its answer is kept: the keeping never ends.
      let charged!: () => void;
      const reachedKeeping = new Promise<void>((resolve) => (charged = resolve));
      let end!: (kept: boolean) => void;
      first.services.store.completeIdempotency = () => {
        charged();
        return new Promise<boolean>((resolve) => (end = resolve));
      };
      const lost = first.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('died-1', key) });
      await reachedKeeping;
      assert.equal(await used(first, key), 1);

      // The client retries against the process started in its place (a minute on: PostgreSQL
      // waits that long before it takes over an entry left unanswered).
      clock.advance(61_000);
      const second = await startService({ databaseUrl: db, clock });
      const retry = await second.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('died-1', key) });
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.valid, true);
      assert.equal(retry.headers['x-quota-used'], '1');
      assert.equal(await used(second, key), 1, 'the retry was not charged again');
      const replay = await second.call('/v1/iban/validate', { json: { iban: IBAN }, ...withKey('died-1', key) });
      assert.equal(replay.headers['idempotent-replayed'], 'true', 'its answer is kept for the next retry');
      assert.equal(replay.text, retry.text);
      // Another request under that key is still a reuse.
      const reused = await second.call('/v1/iban/validate', { json: { iban: OTHER }, ...withKey('died-1', key) });
      assert.equal(reused.body.error, 'idempotency_key_reused');
      assert.equal(await used(second, key), 1);
      end(false);
      await lost;
    });

    test('an answer over 64 KiB is not kept: its retry is 409 idempotency_answer_not_kept, uncharged; without the key it is a new call', async () => {
      const db = databaseUrl();
      const svc = await startService({ databaseUrl: db });
      const key = await svc.makePro(await svc.newKey());
      const json = { text: ibanText(100) };
      const first = await svc.call('/v1/iban/extract', { json, ...withKey('big-1', key) });
      assert.equal(first.status, 200, first.text);
      assert.ok(Buffer.byteLength(first.text) > 64 * 1024, `answer of ${first.text.length} bytes`);
      const retry = await svc.call('/v1/iban/extract', { json, ...withKey('big-1', key) });
      assert.equal(retry.status, 409, retry.text);
      assert.equal(retry.body.error, 'idempotency_answer_not_kept');
      assert.match(retry.body.message, /over 64 KiB.*not charged.*without the Idempotency-Key/s);
      assert.equal(await used(svc, key), 1, 'the retry was not charged');
      // Another body under the same key is still the reuse it always was.
      const reused = await svc.call('/v1/iban/extract', { json: { text: IBAN }, ...withKey('big-1', key) });
      assert.equal(reused.body.error, 'idempotency_key_reused');
      const fresh = await svc.call('/v1/iban/extract', { json, key });
      assert.equal(fresh.status, 200, fresh.text);
      assert.equal(await used(svc, key), 2);
      // An answer of 64 KiB or less is kept as before.
      const small = { text: ibanText(20) };
      const kept = await svc.call('/v1/iban/extract', { json: small, ...withKey('small-1', key) });
      const replay = await svc.call('/v1/iban/extract', { json: small, ...withKey('small-1', key) });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.text, kept.text);
    });

    test('a batch of 1,000, whose answer goes out as a Buffer, is charged once: its retry is 409 idempotency_answer_not_kept', async () => {
      const svc = await startService({ databaseUrl: databaseUrl() });
      const key = await svc.makePro(await svc.newKey());
      const json = { ibans: Array.from({ length: 1000 }, () => IBAN) };
      const first = await svc.call('/v1/iban/batch', { json, ...withKey('batch-1000', key) });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.count, 1000);
      assert.equal(await used(svc, key), 1000);
      const retry = await svc.call('/v1/iban/batch', { json, ...withKey('batch-1000', key) });
      assert.equal(retry.status, 409, retry.text);
      assert.equal(retry.body.error, 'idempotency_answer_not_kept');
      assert.equal(await used(svc, key), 1000, 'the retry was not charged');
      // A shorter batch's answer, one string under 64 KiB, is kept and given again, byte for byte.
      const small = { ibans: Array.from({ length: 70 }, () => IBAN) };
      const kept = await svc.call('/v1/iban/batch', { json: small, ...withKey('batch-70', key) });
      const replay = await svc.call('/v1/iban/batch', { json: small, ...withKey('batch-70', key) });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.text, kept.text);
      assert.equal(await used(svc, key), 1070);
    });

    test('1,000 extract calls with Idempotency-Keys store at most 64 MiB', async () => {
      const db = databaseUrl();
      const svc = await startService({ databaseUrl: db });
      const key = await svc.makePro(await svc.newKey());
      const calls = 1000;
      let next = 0;
      let answered = 0;
      const worker = async () => {
        while (next < calls) {
          const i = next++;
          const r = await svc.call('/v1/iban/extract', { json: { text: ibanText(100, i) }, ...withKey(`x-${i}`, key) });
          assert.equal(r.status, 200, r.text);
          answered += Buffer.byteLength(r.text);
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      const stored = await storedBytes(db);
      assert.equal(stored.rows, calls, 'one entry per call');
      assert.ok(answered > 64 * MiB, `the answers came to ${(answered / MiB).toFixed(1)} MiB`);
      assert.ok(stored.bytes <= 64 * MiB, `stored ${(stored.bytes / MiB).toFixed(1)} MiB`);
      assert.ok(stored.bytes / calls < 1024, `${stored.bytes / calls} bytes a call`);
      assert.equal(await used(svc, key), calls);
    });
  });
}

describe('the OpenAPI document', () => {
  test('declares Idempotency-Key, its 409 and 422, and Idempotent-Replayed on every metered POST, and nowhere else', async () => {
    const svc = await startService();
    const doc = (await svc.call('/openapi.json')).body;
    for (const path of ['/v1/iban/validate', '/v1/iban/batch', '/v1/iban/from-account', '/v1/iban/compliance']) {
      const op = doc.paths[path].post;
      const header = op.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
      assert.equal(header?.in, 'header', path);
      assert.equal(header.required, false, path);
      assert.ok(op.responses['409'] && op.responses['422'], path);
      assert.ok(op.responses['200'].headers['Idempotent-Replayed'], path);
    }
    const names = (op: { parameters?: { name: string }[] }) => (op.parameters ?? []).map((p) => p.name);
    assert.equal(names(doc.paths['/v1/bic/{code}'].get).includes('Idempotency-Key'), false);
    assert.equal(names(doc.paths['/v1/keys/generate'].post).includes('Idempotency-Key'), false);
  });
});

const jsonWith = (idem: string, key: string) => ({
  key,
  headers: { 'idempotency-key': idem, 'content-type': 'application/json' },
});

describe('an answer carrying a key secret', () => {
  test('is never kept: its retry is answered afresh, never with the stored secret', async () => {
    const config = readConfig({ MOD97_DATABASE_URL: 'sqlite::memory:', MOD97_LOG_LEVEL: 'silent' });
    const store = await openStore(config.databaseUrl);
    const services = await buildServices(config, store, testClock());
    const app = Fastify();
    app.setErrorHandler(errorHandler);
    await registerPipeline(app, services);
    // A metered route whose answer may hold a secret: none of the service's does, so the rule is
    // tested on its own. Without `secret` in the body it answers a plain count.
    const meter = { cost: () => 1, trial: true, priceKey: 'validate' as const };
    let served = 0;
    app.post('/v1/test/secret', { config: { access: { auth: 'optional', meter }, idempotent: true } }, async (req) =>
      (req.body as { secret?: boolean }).secret ? { api_key: newSecret().secret } : { served: ++served },
    );
    after(async () => {
      await app.close();
      await store.close();
    });
    const send = (idem: string, payload: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/test/secret',
        headers: { 'idempotency-key': idem, 'content-type': 'application/json' },
        payload,
      });
    const plain = await send('plain-1', '{}');
    const plainAgain = await send('plain-1', '{}');
    assert.equal(plainAgain.headers['idempotent-replayed'], 'true', 'an answer without a secret is kept');
    assert.deepEqual(plainAgain.json(), plain.json());
    const first = await send('secret-1', '{"secret":true}');
    const second = await send('secret-1', '{"secret":true}');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.headers['idempotent-replayed'], undefined);
    assert.notEqual(second.json().api_key, first.json().api_key, 'the first secret was not stored');
  });
});
