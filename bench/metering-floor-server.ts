/**
 * The least an authenticated, metered validate can cost, as a server: the baseline's bare route
 * (baseline.ts, the same constant answer) plus only what every such call must do: the keyed hash
 * of the presented key, its lookup, one counter update committed with the others of its turn of
 * the event loop (SQLite, WAL, synchronous = NORMAL, as mod97's counters), and the quota headers.
 * No other check, hook or log. Run as a child process by metering-floor.ts, which gives it the
 * keys in FLOOR_KEYS (a file, one secret a line).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { loadDataPlane } from '../src/data/index.ts';
import { createDescribe } from '../src/describe.ts';
import { keyedHash } from '../src/keys/secret.ts';
import { openStore } from '../src/store/index.ts';
import { BENCH_IBAN } from './load.ts';
import { PEPPER } from './targets.ts';

const store = await openStore('sqlite::memory:');
const answer = createDescribe(await loadDataPlane(store))(BENCH_IBAN);
await store.close();

const db = new Database(join(String(process.env.FLOOR_DIR), 'floor.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE counters (subject TEXT, period TEXT, used INTEGER, PRIMARY KEY (subject, period))');
const LIMIT = 1e9;
const keys = new Map<string, string>();
for (const [i, secret] of readFileSync(String(process.env.FLOOR_KEYS), 'utf8').trim().split('\n').entries()) {
  keys.set(keyedHash(PEPPER, secret), String(i));
  db.prepare("INSERT INTO counters VALUES (?, '2026-11', 0)").run(String(i));
}
const bump = db
  .prepare("UPDATE counters SET used = used + 1 WHERE subject = ? AND period = '2026-11' AND used < ? RETURNING used")
  .pluck();
const commitTurn = db.transaction((subjects: string[]) => subjects.map((s) => Number(bump.all(s, LIMIT)[0])));
let turn: { subject: string; resolve: (used: number) => void }[] = [];
function admit(subject: string): Promise<number> {
  return new Promise((resolve) => {
    if (turn.length === 0)
      setImmediate(() => {
        const calls = turn;
        turn = [];
        const used = commitTurn(calls.map((c) => c.subject));
        for (const [i, c] of calls.entries()) c.resolve(used[i] ?? 0);
      });
    turn.push({ subject, resolve });
  });
}

const app = Fastify({ logger: false });
app.post('/v1/iban/validate', async (req, reply) => {
  const subject = keys.get(keyedHash(PEPPER, (req.headers.authorization ?? '').slice('Bearer '.length)));
  if (subject === undefined) return reply.code(401).send({ error: 'invalid_api_key' });
  const used = await admit(subject);
  reply.headers({
    'X-Quota-Used': used,
    'X-Quota-Limit': LIMIT,
    'X-Quota-Remaining': LIMIT - used,
    'X-Quota-Month': '2026-11',
    'RateLimit-Limit': LIMIT,
    'RateLimit-Remaining': LIMIT - used,
    'RateLimit-Reset': 86_400,
  });
  return answer;
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
