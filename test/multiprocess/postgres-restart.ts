/**
 * Not part of `npm test` (it restarts the machine's PostgreSQL server). Run by hand:
 *   MOD97_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
 *     node --import tsx test/multiprocess/postgres-restart.ts
 * Two mod97 processes serve steady load on one key; PostgreSQL restarts in the middle. The
 * processes must serve again afterwards without being restarted, /readyz must come back, and
 * no call may be served without being counted (served <= used).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { monthOf } from '../../src/clock.ts';
import { keyedHash, newSecret } from '../../src/keys/secret.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { call } from '../support/http.ts';
import { dropSchemas, inSchema, newSchemaName, pgUrl } from '../support/pg.ts';
import { newKeyRow } from '../store/contract.ts';
import { startProcess } from './processes.ts';

if (!pgUrl) {
  console.log('skipped: MOD97_TEST_POSTGRES_URL is not set');
  process.exit(0);
}
const schema = newSchemaName('mod97_restart');
const url = inSchema(schema);
const pepper = randomBytes(32).toString('hex');
// Asynchronous, so that the load goes on while the server goes down and comes back.
const restart = () => promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'restart']);

const processes = await Promise.all(
  [0, 1].map(() => startProcess({ MOD97_DATABASE_URL: url, MOD97_KEY_PEPPER: pepper })),
);
const store = await openPostgresStore(url);
const { secret } = newSecret();
const key = newKeyRow({ keyHash: keyedHash(pepper, secret), tier: 'pro', limit: 1e9, createdAt: Date.now() });
await store.insertKey(key);
await store.close();

const statuses = new Map<number, number>();
let stop = false;
let servedAfterRestart = 0;
let restarted = false;
async function consumer(i: number) {
  while (!stop) {
    const r = await call(processes[i % 2].url, '/v1/iban/validate', {
      key: secret,
      json: { iban: 'DE89 3704 0044 0532 0130 00' },
    }).catch(() => ({ status: 0 }));
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status === 200 && restarted) servedAfterRestart++;
    if (r.status !== 200) await sleep(20);
  }
}
try {
  const load = Promise.all(Array.from({ length: 16 }, (_, i) => consumer(i)));
  await sleep(2000);
  console.log('restarting PostgreSQL under load');
  await restart();
  restarted = true;
  await sleep(4000);
  stop = true;
  await load;
  const ready = await Promise.all(processes.map((p) => call(p.url, '/readyz')));
  const check = await openPostgresStore(url);
  const used = await check.read({ scope: 'key', subject: key.id, period: monthOf(Date.now()) });
  await check.close();
  const served = statuses.get(200) ?? 0;
  console.log({ statuses: Object.fromEntries(statuses), servedAfterRestart, used });
  assert.ok(servedAfterRestart > 0, 'the processes serve again after the restart');
  assert.deepEqual(
    ready.map((r) => r.status),
    [200, 200],
  );
  assert.ok(served <= used, 'no call was served without being counted');
  console.log(
    `ok: recovered without restarting mod97; ${used - served} unit(s) counted for calls that failed mid-restart`,
  );
} finally {
  stop = true;
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await dropSchemas(schema);
}
