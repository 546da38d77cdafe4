/**
 * What keeping a first answer for its Idempotency-Key costs on SQLite, in this process, against
 * the least any design that keeps every answer durably must pay (docs/benchmarks.md, "What an
 * Idempotency-Key cannot cost less than").
 * `node --import tsx bench/idempotency-floor.ts`
 *
 * - store: a plain charge (`admit`) against a keyed call (reserve, charge with the entry, answer),
 *   through the real store, TURN calls to a turn of the event loop as under load;
 * - floor: the same file's SQL alone, one turn's transaction of TURN counter updates, without and
 *   with one insert per call of its whole entry and answer (one write, no second commit);
 * - crypto: the keyed hash of the Idempotency-Key, the request's fingerprint and the holder's
 *   token, as step 3a makes them.
 * Variants run in interleaved rounds; each figure is the median of the rounds' CPU per call.
 */
import { hash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { keyedHash } from '../src/keys/secret.ts';
import { openSqliteStore } from '../src/store/sqlite/index.ts';
import { median } from './load.ts';

const TURN = 8;
const CALLS = 40_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SUBJECTS = 1000;
const PEPPER = 'bench-pepper-0123456789abcdef0123456789abcdef';
/** The size of a validate's answer (1,018 bytes for DE89 3704 0044 0532 0130 00). */
const ANSWER = { status: 200, contentType: 'application/json; charset=utf-8', body: 'x'.repeat(1018) };
const DAY = 86_400_000;
const PERIOD = '2026-11';

const dir = mkdtempSync(join(tmpdir(), 'mod97-idem-floor-'));
const store = openSqliteStore(`sqlite:${join(dir, 'store.db')}`);
let serial = 0;
const refOf = (i: number) => ({ scope: 'key' as const, subject: `k${i % SUBJECTS}`, period: PERIOD });

async function plainCall(i: number): Promise<void> {
  await store.admit(refOf(i), 1, 1e9);
}

async function keyedCall(i: number): Promise<void> {
  const now = Date.now();
  const r = {
    scope: `key:${refOf(i).subject}`,
    key: keyedHash(PEPPER, `bench-${++serial}`),
    fingerprint: hash('sha256', `POST /v1/iban/validate\n${i}`),
    token: randomUUID(),
    now,
    expiresAt: now + DAY,
    staleBefore: now - 60_000,
  };
  await store.reserveIdempotency(r);
  await store.admit(refOf(i), 1, 1e9, r);
  await store.completeIdempotency(r.scope, r.key, r.token, ANSWER);
}

/** CPU µs (user + system) per call since `before`, over CALLS calls. */
function perCall(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

/** CPU µs per call of `call`, TURN calls at a time. */
async function storeRound(call: (i: number) => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i += TURN) await Promise.all(Array.from({ length: TURN }, (_, j) => call(i + j)));
  return perCall(before);
}

// The floor: the same schema, the SQL alone, in a file of its own.
const floorFile = join(dir, 'floor.db');
await openSqliteStore(`sqlite:${floorFile}`).close();
const db = new Database(floorFile);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const bump = db.prepare(
  'INSERT INTO counters (scope, subject, period, used) VALUES (?, ?, ?, 1) ON CONFLICT (scope, subject, period) DO UPDATE SET used = used + 1 RETURNING used',
);
const entry = db.prepare(`INSERT INTO idempotency_keys
  (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
const floorTurn = db.transaction((from: number, withEntry: boolean) => {
  for (let i = from; i < from + TURN; i++) {
    const { subject } = refOf(i);
    bump.all('key', subject, PERIOD);
    if (!withEntry) continue;
    const key = hash('sha256', `floor-${++serial}`);
    const token = randomUUID();
    entry.run(`key:${subject}`, key, key, token, ANSWER.status, ANSWER.contentType, ANSWER.body, i, i + DAY);
  }
});
function floorRound(withEntry: boolean): number {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i += TURN) floorTurn(i, withEntry);
  return perCall(before);
}

function cryptoRound(): number {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    keyedHash(PEPPER, `bench-${i}`);
    hash('sha256', `POST /v1/iban/validate\n${i}`);
    randomUUID();
  }
  return perCall(before);
}

const figures: Record<string, number[]> = {
  'store: plain charge': [],
  'store: keyed call': [],
  'floor: counter update': [],
  'floor: counter update + entry with its answer': [],
  'crypto of step 3a': [],
};
await storeRound(plainCall); // warm-up, and the index of the keyed calls read
await storeRound(keyedCall);
for (let r = 0; r < ROUNDS; r++) {
  figures['store: plain charge'].push(await storeRound(plainCall));
  figures['store: keyed call'].push(await storeRound(keyedCall));
  figures['floor: counter update'].push(floorRound(false));
  figures['floor: counter update + entry with its answer'].push(floorRound(true));
  figures['crypto of step 3a'].push(cryptoRound());
}
const m = Object.fromEntries(Object.entries(figures).map(([name, xs]) => [name, median(xs)]));
for (const [name, us] of Object.entries(m))
  console.log(`${name}: ${us.toFixed(1)} µs CPU per call (median of ${ROUNDS})`);
const storeExtra = m['store: keyed call'] - m['store: plain charge'];
const floorExtra = m['floor: counter update + entry with its answer'] - m['floor: counter update'];
console.log(
  `keyed over plain: store +${storeExtra.toFixed(1)} µs; floor +${floorExtra.toFixed(1)} µs, with step 3a's crypto +${(floorExtra + m['crypto of step 3a']).toFixed(1)} µs`,
);
db.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
