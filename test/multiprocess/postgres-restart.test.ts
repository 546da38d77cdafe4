/**
 * PostgreSQL restarting under load, on a private server of the test's own (never the machine's
 * cluster): two mod97 processes serve 16 consumers on one key while the database is stopped and
 * started again, 5 times in a row (MOD97_TEST_RESTARTS=20 for a longer soak). No process may exit; during
 * each outage a client gets 503 `storage_unavailable` with Retry-After within 10 s; the first
 * success comes within 5 s of the database's return; the counter ends equal to the successes
 * received plus at most the requests in flight at the restarts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { monthOf } from '../../src/clock.ts';
import { keyedHash, newSecret } from '../../src/keys/secret.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { call } from '../support/http.ts';
import { newKeyRow } from '../store/contract.ts';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';
import { startProcess, type Mod97Process } from './processes.ts';

const RESTARTS = Number(process.env.MOD97_TEST_RESTARTS ?? 5);
const CONSUMERS = 16;
const IBAN = 'DE89 3704 0044 0532 0130 00';
const skip = privatePostgresUnavailable();

test(`PostgreSQL restarted ${RESTARTS} times under load`, { skip: skip ?? false, timeout: 600_000 }, async (t) => {
  let pg: PrivatePostgres | undefined;
  let processes: Mod97Process[] = [];
  let stop = false;
  t.after(async () => {
    stop = true;
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await pg?.destroy();
  });
  pg = await startPrivatePostgres();
  const url = `${pg.url}?schema=mod97_restart`;
  const pepper = randomBytes(32).toString('hex');
  processes = await Promise.all([0, 1].map(() => startProcess({ MOD97_DATABASE_URL: url, MOD97_KEY_PEPPER: pepper })));
  const store = await openPostgresStore(url);
  const { secret } = newSecret();
  const key = newKeyRow({ keyHash: keyedHash(pepper, secret), tier: 'pro', limit: 1e9, createdAt: Date.now() });
  await store.insertKey(key);
  await store.close();

  const statuses = new Map<string, number>();
  let served = 0;
  let lastSuccess = 0;
  let lastUnavailable = 0;
  const badUnavailable: string[] = [];
  async function consumer(i: number) {
    while (!stop) {
      const r = await call(processes[i % 2]!.url, '/v1/iban/validate', { key: secret, json: { iban: IBAN } }).catch(
        (err: Error) => ({ status: 0, body: { error: err.message }, headers: {} as Record<string, unknown> }),
      );
      const label = `${r.status} ${r.status === 200 ? '' : r.body?.error}`.trim();
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
      if (r.status === 200) {
        served++;
        lastSuccess = Date.now();
      } else if (r.status === 503) {
        lastUnavailable = Date.now();
        if (r.body?.error !== 'storage_unavailable' || r.headers['retry-after'] !== '5') badUnavailable.push(label);
        await sleep(50);
      } else await sleep(50);
    }
  }
  const load = Promise.all(Array.from({ length: CONSUMERS }, (_, i) => consumer(i)));
  const waitFor = async (what: () => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!what() && Date.now() < end) await sleep(10);
    return what();
  };

  const outages: { unavailableAfterMs: number; backAfterMs: number }[] = [];
  try {
    for (let i = 0; i < RESTARTS; i++) {
      assert.ok(await waitFor(() => lastSuccess > Date.now() - 200, 5000), `serving before restart ${i + 1}`);
      await sleep(500);
      const down = Date.now();
      await pg.stop();
      const refused = await waitFor(() => lastUnavailable > down, 10_000);
      assert.ok(refused, `restart ${i + 1}: no 503 within 10 s of the database going down`);
      const unavailableAfterMs = lastUnavailable - down;
      await sleep(300);
      await pg.start();
      const up = Date.now();
      assert.ok(await waitFor(() => lastSuccess > up, 5000), `restart ${i + 1}: no success within 5 s of the return`);
      outages.push({ unavailableAfterMs, backAfterMs: lastSuccess - up });
      for (const p of processes) assert.equal(p.child.exitCode, null, `a mod97 process exited: ${p.logs.slice(-3)}`);
    }
  } finally {
    stop = true;
    // A request hanging on a broken process must not hold the test: its verdict is already in.
    await Promise.race([load, sleep(15_000)]);
  }
  for (const p of processes) assert.equal(p.child.exitCode, null, 'no mod97 process exited');
  const check = await openPostgresStore(url);
  const used = await check.read({ scope: 'key', subject: key.id, period: monthOf(Date.now()) });
  await check.close();
  const worst = (f: 'unavailableAfterMs' | 'backAfterMs') => Math.max(...outages.map((o) => o[f]));
  console.log(
    JSON.stringify({
      restarts: RESTARTS,
      statuses: Object.fromEntries(statuses),
      served,
      used,
      worstUnavailableAfterMs: worst('unavailableAfterMs'),
      worstBackAfterMs: worst('backAfterMs'),
    }),
  );
  assert.deepEqual(badUnavailable, [], 'every 503 is storage_unavailable with Retry-After: 5');
  const unexpected = [...statuses.keys()].filter((s) => s !== '200' && s !== '503 storage_unavailable');
  assert.deepEqual(unexpected, [], 'only successes and 503 storage_unavailable');
  assert.ok(served <= used, `every success was counted (${served} served, ${used} counted)`);
  assert.ok(used - served <= CONSUMERS * RESTARTS, 'at most the requests in flight at the restarts counted unserved');
});
