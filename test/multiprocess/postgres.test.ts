/**
 * Four real mod97 processes sharing one PostgreSQL schema: every limit holds across them
 * exactly as in one process. Runs when MOD97_TEST_POSTGRES_URL is set.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { monthOf } from '../../src/clock.ts';
import { keyedHash, newSecret } from '../../src/keys/secret.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import type { CounterRef, Store } from '../../src/store/types.ts';
import { call } from '../support/http.ts';
import { dropSchemas, inSchema, newSchemaName, pgUrl } from '../support/pg.ts';
import { newKeyRow } from '../store/contract.ts';
import { startProcess, type Mod97Process } from './processes.ts';

const PEPPER = randomBytes(32).toString('hex');
const IBAN = 'DE89 3704 0044 0532 0130 00';

describe('four mod97 processes sharing PostgreSQL', { skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set' }, () => {
  const schema = newSchemaName('mod97_mp');
  const databaseUrl = pgUrl ? inSchema(schema) : '';
  const outbox = mkdtempSync(join(tmpdir(), 'mod97-mp-outbox-'));
  let processes: Mod97Process[] = [];
  let store: Store;

  before(async () => {
    // All four start at once: the migration lock must keep them from racing.
    const started = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        startProcess({
          MOD97_DATABASE_URL: databaseUrl,
          MOD97_KEY_PEPPER: PEPPER,
          MOD97_OUTBOX_DIR: outbox,
          MOD97_MX_CHECK: 'off',
        }),
      ),
    );
    processes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    store = await openPostgresStore(databaseUrl);
  });

  after(async () => {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await store?.close();
    await dropSchemas(schema);
    rmSync(outbox, { recursive: true, force: true });
  });

  test('200 consumers spread over 4 processes race for the last 50 units: exactly 50 are served', async () => {
    const { secret } = newSecret();
    const key = newKeyRow({ keyHash: keyedHash(PEPPER, secret), tier: 'pro', limit: 10_000, createdAt: Date.now() });
    await store.insertKey(key);
    const counter: CounterRef = { scope: 'key', subject: key.id, period: monthOf(Date.now()) };
    assert.equal(await store.admit(counter, 9_950, 10_000), 9_950);

    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(processes[i % 4].url, '/v1/iban/validate', { key: secret, json: { iban: IBAN } }),
      ),
    );
    const served = replies.filter((r) => r.status === 200);
    assert.equal(served.length, 50);
    assert.equal(replies.filter((r) => r.status === 402).length, 150);
    assert.deepEqual(new Set(served.map((r) => r.headers['x-quota-limit'])), new Set(['10000']));

    const usage = await call(processes[1].url, '/v1/keys/usage', { key: secret });
    assert.equal(usage.body.used, 10_000);
    assert.equal(usage.body.remaining, 0);
    assert.equal(await store.read(counter), 10_000);
  });

  test('4 key requests from one network to 4 different processes create exactly 3 keys', async () => {
    const replies = await Promise.all(
      processes.map((p) => call(p.url, '/v1/keys/generate', { method: 'POST', from: '127.0.0.77' })),
    );
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 201, 201, 429]);
    assert.equal(replies.find((r) => r.status === 429)?.body.error, 'key_creation_limit');
  });

  test('20 parallel wrong codes spread over the processes count at most 5, then even the right code is refused', async () => {
    const r = await call(processes[0].url, '/v1/keys/generate', { method: 'POST', from: '127.0.0.88' });
    const key = r.body.api_key as string;
    assert.equal((await call(processes[1].url, '/v1/iban/validate', { key, json: { iban: IBAN } })).status, 200);
    const email = `mp-${randomBytes(4).toString('hex')}@fastmail.com`;
    const sent = await call(processes[2].url, '/v1/keys/claim', { key, json: { email } });
    assert.equal(sent.status, 202, sent.text);
    const mails = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    assert.equal(mails.length, 1);
    const right = /^(\d{6})\r?$/m.exec(readFileSync(join(outbox, mails[0]), 'utf8'))![1];
    const wrong = (i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');

    // Each guess from its own network, so that only the attempt rule can refuse them.
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(processes[i % 4].url, '/v1/keys/claim', {
          key,
          json: { email, code: wrong(i) },
          from: `127.0.1.${i + 1}`,
        }),
      ),
    );
    const reasons = replies.map((x) => x.body.reason);
    assert.ok(
      replies.every((x) => x.status === 403),
      replies.map((x) => x.text).join('\n'),
    );
    assert.equal(reasons.filter((x) => x === 'wrong_code').length, 5);
    assert.equal(reasons.filter((x) => x === 'too_many_attempts').length, 15);
    const late = await call(processes[3].url, '/v1/keys/claim', { key, json: { email, code: right } });
    assert.equal(late.status, 403);
    assert.equal(late.body.reason, 'too_many_attempts');
  });
});
