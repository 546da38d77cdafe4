/**
 * `npm run bench`: load benchmarks at 50 connections, each target in its own process, medians
 * of a few short runs, written to docs/benchmarks.md (the load section only).
 * PostgreSQL targets run when MOD97_BENCH_POSTGRES_URL (or MOD97_TEST_POSTGRES_URL) is set;
 * they use a schema of their own, dropped at the end.
 * BENCH_RUNS (3) and BENCH_SECONDS (5) tune the length.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { BENCH_IBAN, CONNECTIONS, measure, median, type Figures, type Load } from './load.ts';
import { machine, table, writeSection, type Row } from './report.ts';
import { seedKeys, startTarget, type Target } from './targets.ts';

const opts = {
  runs: Number(process.env.BENCH_RUNS ?? 3),
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  warmupSeconds: 2,
};
const KEYS = 1000;
const VALIDATE = JSON.stringify({ iban: BENCH_IBAN });
const SAMPLES = [
  'DE89 3704 0044 0532 0130 00',
  'GB82 WEST 1234 5698 7654 32',
  'FR14 2004 1010 0505 0001 3M02 606',
  'NL91 ABNA 0417 1643 00',
  'BE68 5390 0754 7034',
  'CH93 0076 2011 6238 5295 7',
  'IT60 X054 2811 1010 0000 0123 456',
  'ES91 2100 0418 4502 0005 1332',
];
const BATCH = JSON.stringify({ ibans: Array.from({ length: 1000 }, (_, i) => SAMPLES[i % SAMPLES.length]) });
const pgUrl = process.env.MOD97_BENCH_POSTGRES_URL ?? process.env.MOD97_TEST_POSTGRES_URL;

const bearer = (keys: string[]) => (i: number) => ({ authorization: `Bearer ${keys[i % keys.length]}` });
// The trial allows 25 calls a day per network: each forwarded address is used 20 times.
const forwarded = (i: number) => {
  const n = Math.floor(i / 20);
  return { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};

/** The URLs of the targets under load, and their summed CPU time. */
const at = (...targets: Target[]) => ({
  urls: targets.map((t) => t.url),
  cpuMs: () => targets.reduce((ms, t) => ms + t.cpuMs(), 0),
});

async function bench(name: string, load: Load): Promise<Figures> {
  const f = await measure(load, opts);
  console.log(
    `${name}: ${Math.round(f.reqPerSec)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${Math.round(f.cpuUsPerReq ?? NaN)} µs CPU/req, failed ${f.failures}`,
  );
  return f;
}

const started = Date.now();
const rows: Row[] = [];

const baseline = await startTarget('bench/baseline.ts');
const base = await bench('baseline', { ...at(baseline), path: '/v1/iban/validate', body: VALIDATE });
await baseline.stop();
rows.push({ name: 'bare Fastify route, same JSON (baseline)', figures: base });

const dir = mkdtempSync(join(tmpdir(), 'mod97-bench-'));

// Start-up as `npm start` does it, on an empty database with the bundled data: five fresh processes.
const starts: { ms: number; rss: number }[] = [];
for (let i = 0; i < 5; i++) {
  const t = await startTarget('src/server.ts', { MOD97_DATABASE_URL: `sqlite:${join(dir, `start-${i}.db`)}` });
  starts.push({ ms: t.startMs, rss: t.rssMb() });
  await t.stop();
}
const startMs = median(starts.map((x) => x.ms));
const startRss = median(starts.map((x) => x.rss));
console.log(`start-up: ${Math.round(startMs)} ms, RSS ${startRss} MB`);

const sqliteUrl = `sqlite:${join(dir, 'bench.db')}`;
const sqliteKeys = await seedKeys(sqliteUrl, KEYS);
const sqlite = await startTarget('src/server.ts', { MOD97_DATABASE_URL: sqliteUrl, MOD97_TRUST_PROXY: '127.0.0.1' });
const sqliteMany = await bench('sqlite 1000 keys', {
  ...at(sqlite),
  path: '/v1/iban/validate',
  body: VALIDATE,
  headers: bearer(sqliteKeys),
});
rows.push({ name: 'mod97 SQLite, validate, 1,000 keys', figures: sqliteMany });
rows.push({
  name: 'mod97 SQLite, validate, one key',
  figures: await bench('sqlite 1 key', {
    ...at(sqlite),
    path: '/v1/iban/validate',
    body: VALIDATE,
    headers: bearer(sqliteKeys.slice(0, 1)),
  }),
});
rows.push({
  name: 'mod97 SQLite, no-key trial',
  note: 'new network every 20 calls',
  figures: await bench('trial', { ...at(sqlite), path: '/v1/iban/validate', body: VALIDATE, headers: forwarded }),
});
const batch = await bench('batch', { ...at(sqlite), path: '/v1/iban/batch', body: BATCH, headers: bearer(sqliteKeys) });
rows.push({
  name: 'mod97 SQLite, batch of 1000',
  note: `${Math.round(batch.reqPerSec * 1000).toLocaleString('en-US')} IBANs/s`,
  figures: batch,
  noRatio: true,
});
// Server time of one batch, measured where it is not queued behind 49 others.
const batchAlone = await bench('batch, one connection', {
  ...at(sqlite),
  path: '/v1/iban/batch',
  body: BATCH,
  headers: bearer(sqliteKeys),
  connections: 1,
});
rows.push({ name: 'mod97 SQLite, batch of 1000, one connection', figures: batchAlone, noRatio: true });
const rssAfterLoad = sqlite.rssMb();
await sqlite.stop();
rmSync(dir, { recursive: true, force: true });

let pgVersion: string | null = null;
let pgOne: Figures | null = null;
let pgTwo: Figures | null = null;
if (pgUrl) {
  const schema = `mod97_bench_${randomBytes(4).toString('hex')}`;
  const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`;
  const admin = postgres(pgUrl, { onnotice: () => {} });
  try {
    pgVersion = String((await admin`SELECT version()`)[0].version).split(' on ')[0];
    const keys = await seedKeys(url, KEYS);
    const env = { MOD97_DATABASE_URL: url };
    const one = await startTarget('src/server.ts', env);
    pgOne = await bench('postgres 1 process', {
      ...at(one),
      path: '/v1/iban/validate',
      body: VALIDATE,
      headers: bearer(keys),
    });
    await one.stop();
    const two = await Promise.all([startTarget('src/server.ts', env), startTarget('src/server.ts', env)]);
    pgTwo = await bench('postgres 2 processes', {
      ...at(...two),
      path: '/v1/iban/validate',
      body: VALIDATE,
      headers: bearer(keys),
    });
    await Promise.all(two.map((t) => t.stop()));
  } finally {
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}
const noPg = 'MOD97_BENCH_POSTGRES_URL not set';
rows.push({ name: 'mod97 PostgreSQL, validate, 1,000 keys, 1 process', figures: pgOne, missing: noPg });
rows.push({ name: 'mod97 PostgreSQL, validate, 1,000 keys, 2 processes', figures: pgTwo, missing: noPg });

const pct = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
const targets = [
  `- Start-up with the whole bundled data set ≤ 1.5 s and RSS ≤ 250 MB: ${Math.round(startMs)} ms (median of 5 starts, spawn to the first /healthz answer), ${verdict(startMs <= 1500)}; RSS ${startRss} MB at start, ${verdict(startRss <= 250)} (${rssAfterLoad} MB after all the SQLite runs above, 50 batches of 1000 in flight included: V8 keeps the heap it grew).`,
  `- SQLite, authenticated validate ≥ 80 % of the baseline's req/s: ${pct(sqliteMany.reqPerSec, base.reqPerSec)}, ${verdict(sqliteMany.reqPerSec >= 0.8 * base.reqPerSec)}; p99 ≤ 10 ms: ${sqliteMany.p99} ms, ${verdict(sqliteMany.p99 <= 10)}.`,
  batchAlone.cpuUsPerReq !== null
    ? `- A batch of 1000 in under 15 ms of server time: ${(batchAlone.cpuUsPerReq / 1000).toFixed(1)} ms of server CPU per batch sent one at a time (p50 round trip ${batchAlone.p50} ms, receiving about 670 kB included), ${verdict(batchAlone.cpuUsPerReq < 15_000)}; at 50 connections ${((batch.cpuUsPerReq ?? NaN) / 1000).toFixed(1)} ms, most of it garbage collection of 50 batches in flight at once.`
    : '',
  pgOne
    ? `- PostgreSQL, one process ≥ 50 % of SQLite: ${pct(pgOne.reqPerSec, sqliteMany.reqPerSec)}, ${verdict(pgOne.reqPerSec >= 0.5 * sqliteMany.reqPerSec)}.`
    : '- PostgreSQL: not measured in this run.',
  pgOne && pgTwo
    ? `- Two PostgreSQL processes above one: ${pct(pgTwo.reqPerSec, pgOne.reqPerSec)} of one, ${verdict(pgTwo.reqPerSec > pgOne.reqPerSec)}.`
    : '',
].filter(Boolean);

writeSection(`## Load (\`npm run bench\`)

Generated ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`bench/run.ts\` in ${Math.round((Date.now() - started) / 1000)} s.
autocannon, ${CONNECTIONS} connections unless the row says otherwise, POST with JSON bodies; each figure is the median of ${opts.runs} runs of ${opts.seconds} s after a ${opts.warmupSeconds} s warm-up.
Each target is its own process; the load generator runs in the parent process on the same machine.
"server CPU µs/req" is the user + system time of the mod97 (or baseline) processes divided by the requests answered (PostgreSQL's own CPU is not in it): it does not depend on how the two cores were shared during the run, so it is the steadier figure to compare.

${machine(pgVersion)}

${table(rows, base.reqPerSec)}

Targets (reported, not asserted):
${targets.join('\n')}
`);
console.log('docs/benchmarks.md updated');
