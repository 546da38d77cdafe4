/**
 * `npm run bench`: load benchmarks, written to docs/benchmarks.md (the load section only) and to
 * bench/results.json (the ratios of this run, for scripts).
 * The baseline and the mod97 targets run side by side and are measured in interleaved rounds;
 * each target is its own process, pinned to core 0 with the generator on core 1 when possible.
 * PostgreSQL targets run when MOD97_BENCH_POSTGRES_URL (or MOD97_TEST_POSTGRES_URL) is set;
 * they use a schema of their own, dropped at the end.
 * Start-up is bench/startup.ts's (`npm run bench` runs it first): its figures are kept in
 * bench/results.json and shown here.
 * BENCH_ROUNDS (5) and BENCH_SECONDS (5) tune the length; BENCH_QUICK=1 runs every load for one
 * round of 3 s (unless those say otherwise) and prints the figures instead of writing them (for
 * trying a change: compare the server CPU per request, the steady figure on a shared machine).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BENCH_IBAN, CONNECTIONS, type Figures, generator, type Load, measureInterleaved, pinned } from './load.ts';
import { sampleText } from './extract.ts';
import { machine, type Row, table, writeSection } from './report.ts';
import { buildBundles, SERVER, seedKeys, startTarget, type Target } from './targets.ts';

const quick = process.env.BENCH_QUICK === '1';
const opts = {
  rounds: Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 5)),
  seconds: Number(process.env.BENCH_SECONDS ?? (quick ? 3 : 5)),
  warmupSeconds: quick ? 1 : 2,
};
const KEYS = 1000;
const VALIDATE = JSON.stringify({ iban: BENCH_IBAN });
/** A reference to validate: an RF with a mistyped check digit, so its suggestions are searched too. */
const REFERENCE = JSON.stringify({ reference: 'RF19 5390 0754 7034' });
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
const batchOf = (size: number) =>
  JSON.stringify({ ibans: Array.from({ length: size }, (_, i) => SAMPLES[i % SAMPLES.length]) });
/** The longest text a call may send, invoice-like, an IBAN line every 10 lines. */
const EXTRACT_TEXT = sampleText(10);
const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));
buildBundles();
const pgUrl = process.env.MOD97_BENCH_POSTGRES_URL ?? process.env.MOD97_TEST_POSTGRES_URL;

const started = Date.now();
const log = (name: string, f: Figures) =>
  console.log(
    `${name}: ${Math.round(f.reqPerSec)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${Math.round(f.cpuUsPerReq ?? Number.NaN)} µs CPU/req, failed ${f.failures}`,
  );
/** The URLs of the targets under load, and their summed CPU time. */
const at = (...targets: Target[]) => ({
  urls: targets.map((t) => t.url),
  cpuMs: () => targets.reduce((ms, t) => ms + t.cpuMs(), 0),
});
const validate = (name: string, targets: Target[], extra: Partial<Load> = {}): Load => ({
  name,
  ...at(...targets),
  path: '/v1/iban/validate',
  body: VALIDATE,
  ...extra,
});

const dir = mkdtempSync(join(tmpdir(), 'mod97-bench-'));
/** What earlier benchmarks wrote (bench/startup.ts's start-up figures among them): kept. */
const previous: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};

const sqliteUrl = `sqlite:${join(dir, 'bench.db')}`;
const sqliteKeys = await seedKeys(sqliteUrl, KEYS);
const baseline = await startTarget('bench/baseline.ts');
const sqlite = await startTarget(SERVER, { MOD97_DATABASE_URL: sqliteUrl, MOD97_TRUST_PROXY: '127.0.0.1' });

let pgVersion: string | null = null;
let pgOne: Target | null = null;
let pgKeys: string[] = [];
let pgSchema: string | null = null;
let pgEnv: Record<string, string> = {};
const admin = pgUrl ? new pg.Pool({ connectionString: pgUrl, max: 1 }) : null;
if (pgUrl && admin) {
  pgSchema = `mod97_bench_${randomBytes(4).toString('hex')}`;
  const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${pgSchema}`;
  pgVersion = String((await admin.query('SELECT version()')).rows[0].version).split(' on ')[0];
  pgKeys = await seedKeys(url, KEYS);
  pgEnv = { MOD97_DATABASE_URL: url };
  pgOne = await startTarget(SERVER, pgEnv);
}

// The ratio targets, interleaved: baseline, SQLite, PostgreSQL, baseline, SQLite, ...
const interleaved = [
  validate('baseline', [baseline]),
  validate('sqlite 1000 keys', [sqlite], { keys: sqliteKeys }),
  validate('sqlite 1 key', [sqlite], { keys: sqliteKeys.slice(0, 1) }),
  validate('sqlite idempotency key', [sqlite], { keys: sqliteKeys, idempotencyKeys: true }),
  validate('sqlite reference validate', [sqlite], {
    keys: sqliteKeys,
    path: '/v1/reference/validate',
    body: REFERENCE,
  }),
  validate('trial', [sqlite], { forwarded: true }),
  ...(pgOne ? [validate('postgres 1 process', [pgOne], { keys: pgKeys })] : []),
];
const f = await measureInterleaved(interleaved, opts, log);
const base = f.get('baseline')!;
const sqliteMany = f.get('sqlite 1000 keys')!;
const pgOneFigures = f.get('postgres 1 process') ?? null;
await baseline.stop();
// PostgreSQL with and without an Idempotency-Key, a pair of its own after the targets above: the
// kept answers' writes (and PostgreSQL's work after them) must not fall on the other rounds.
const pgPair = pgOne
  ? await measureInterleaved(
      [
        validate('postgres 1 process, paired', [pgOne], { keys: pgKeys }),
        validate('postgres idempotency key', [pgOne], { keys: pgKeys, idempotencyKeys: true }),
      ],
      { ...opts, rounds: Math.min(opts.rounds, 3) },
      log,
    )
  : null;
const pgPlainPaired = pgPair?.get('postgres 1 process, paired') ?? null;
const pgIdempotent = pgPair?.get('postgres idempotency key') ?? null;
if (pgOne) await pgOne.stop();

// Batches and extraction are different requests from the baseline's: measured after, without a
// ratio, interleaved with each other (server CPU per IBAN at 1000 and at 100 per call).
const batches = await measureInterleaved(
  [
    { name: 'batch', ...at(sqlite), path: '/v1/iban/batch', body: batchOf(1000), keys: sqliteKeys },
    { name: 'batch 100', ...at(sqlite), path: '/v1/iban/batch', body: batchOf(100), keys: sqliteKeys },
    // Server time of one batch, where it is not queued behind 49 others.
    {
      name: 'batch alone',
      ...at(sqlite),
      path: '/v1/iban/batch',
      body: batchOf(1000),
      keys: sqliteKeys,
      connections: 1,
    },
    {
      name: 'extract',
      ...at(sqlite),
      path: '/v1/iban/extract',
      body: JSON.stringify({ text: EXTRACT_TEXT }),
      keys: sqliteKeys,
    },
  ],
  { ...opts, rounds: Math.min(opts.rounds, 3) },
  log,
);
const batch = batches.get('batch')!;
const batch100 = batches.get('batch 100')!;
const batchAlone = batches.get('batch alone')!;
const extract = batches.get('extract')!;
const perIban = (f: Figures, size: number) => (f.cpuUsPerReq === null ? null : f.cpuUsPerReq / size);
const usPerIban1000 = perIban(batch, 1000);
const usPerIban100 = perIban(batch100, 100);
const extractUsPerKb = extract.cpuUsPerReq === null ? null : extract.cpuUsPerReq / (EXTRACT_TEXT.length / 1000);
const rssAfterLoad = sqlite.rssMb();
await sqlite.stop();

// Unpinned, every process where the scheduler puts it. Pinning the server to core 0 leaves
// PostgreSQL to share a core with it or with the generator; unpinned, SQLite and PostgreSQL are
// compared again with the scheduler balancing all three. Two processes on one database: with
// two cores shared by both servers, PostgreSQL and the generator, this shows contention, not scaling.
let unpinned: Map<string, Figures> | null = null;
if (pgUrl && admin && pgSchema) {
  try {
    const sqliteFree = await startTarget(SERVER, { MOD97_DATABASE_URL: sqliteUrl }, { pin: false });
    const two = await Promise.all([0, 1].map(() => startTarget(SERVER, pgEnv, { pin: false })));
    const one = await startTarget(SERVER, pgEnv, { pin: false });
    unpinned = await measureInterleaved(
      [
        validate('sqlite 1 process, unpinned', [sqliteFree], { keys: sqliteKeys }),
        validate('postgres 1 process, unpinned', [one], { keys: pgKeys }),
        validate('postgres 2 processes, unpinned', two, { keys: pgKeys }),
      ],
      { ...opts, rounds: 3 },
      log,
    );
    await Promise.all([...two, one, sqliteFree].map((t) => t.stop()));
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
    await admin.end();
  }
}
rmSync(dir, { recursive: true, force: true });
const sqliteFree = unpinned?.get('sqlite 1 process, unpinned') ?? null;
const pgFree = unpinned?.get('postgres 1 process, unpinned') ?? null;
const pgTwo = unpinned?.get('postgres 2 processes, unpinned') ?? null;
const twoVsOne = pgTwo && pgFree ? pgTwo.reqPerSec / pgFree.reqPerSec : null;
const pgFreeVsSqlite = pgFree && sqliteFree ? pgFree.reqPerSec / sqliteFree.reqPerSec : null;

const rows: Row[] = [
  { name: 'bare Fastify route, same JSON (baseline)', figures: base },
  { name: 'mod97 SQLite, validate, 1,000 keys', figures: sqliteMany },
  { name: 'mod97 SQLite, validate, one key', figures: f.get('sqlite 1 key')! },
  {
    name: 'mod97 SQLite, validate with Idempotency-Key, 1,000 keys',
    note: 'a fresh key per request, kept',
    figures: f.get('sqlite idempotency key')!,
  },
  { name: 'mod97 SQLite, no-key trial', note: 'new network every 20 calls', figures: f.get('trial')! },
  {
    name: 'mod97 SQLite, reference validate, 1,000 keys',
    note: 'an RF typo: suggestions searched',
    figures: f.get('sqlite reference validate')!,
  },
  {
    name: 'mod97 SQLite, batch of 1000',
    note: `${Math.round(batch.reqPerSec * 1000).toLocaleString('en-US')} IBANs/s`,
    figures: batch,
    noRatio: true,
  },
  { name: 'mod97 SQLite, batch of 1000, one connection', figures: batchAlone, noRatio: true },
  {
    name: 'mod97 SQLite, batch of 100',
    note: `${Math.round(batch100.reqPerSec * 100).toLocaleString('en-US')} IBANs/s`,
    figures: batch100,
    noRatio: true,
  },
  {
    name: `mod97 SQLite, extract from ${EXTRACT_TEXT.length.toLocaleString('en-US')} characters`,
    note: 'an IBAN line every 10 lines',
    figures: extract,
    noRatio: true,
  },
  { name: 'mod97 PostgreSQL, validate, 1,000 keys, 1 process', figures: pgOneFigures, missing: 'no PostgreSQL' },
  {
    name: 'mod97 PostgreSQL, validate, 1,000 keys, 1 process (paired with the next row)',
    figures: pgPlainPaired,
    missing: 'no PostgreSQL',
    noRatio: true,
  },
  {
    name: 'mod97 PostgreSQL, validate with Idempotency-Key, 1,000 keys, 1 process',
    note: 'a fresh key per request, kept',
    figures: pgIdempotent,
    missing: 'no PostgreSQL',
    noRatio: true,
  },
  {
    name: 'mod97 SQLite, validate, 1,000 keys (unpinned)',
    figures: sqliteFree,
    missing: 'no PostgreSQL run',
    noRatio: true,
  },
  {
    name: 'mod97 PostgreSQL, validate, 1,000 keys, 1 process (unpinned)',
    figures: pgFree,
    missing: 'no PostgreSQL',
    noRatio: true,
  },
  {
    name: 'mod97 PostgreSQL, validate, 1,000 keys, 2 processes (unpinned)',
    figures: pgTwo,
    missing: 'no PostgreSQL',
    noRatio: true,
  },
];

/** `x` to `decimals` places; the batch figures are compared with each other, so they get two. */
const rounded = (x: number | null, decimals: number) => (x === null ? null : Number(x.toFixed(decimals)));
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const idempotent = f.get('sqlite idempotency key')!;
const referenceValidate = f.get('sqlite reference validate')!;
// Round by round: the PostgreSQL and SQLite loads of a round ran one after the other.
const pgRuns = pgOneFigures ? pgOneFigures.roundReqPerSec.map((r, i) => ratio(r, sqliteMany.roundReqPerSec[i])) : null;
const startup = {
  startup_ms: previous.startup_ms ?? null,
  bare_startup_ms: previous.bare_startup_ms ?? null,
  startup_vs_bare: previous.startup_vs_bare ?? null,
  rss_start_mb: previous.rss_start_mb ?? null,
};
const results = {
  ...previous,
  generated_at: new Date().toISOString(),
  generator,
  pinned,
  sqlite_validate_vs_bare: ratio(sqliteMany.reqPerSec, base.reqPerSec),
  postgres_vs_sqlite: pgOneFigures ? ratio(pgOneFigures.reqPerSec, sqliteMany.reqPerSec) : null,
  postgres_vs_sqlite_runs: pgRuns,
  postgres_vs_sqlite_unpinned: pgFreeVsSqlite === null ? null : ratio(pgFreeVsSqlite, 1),
  postgres_two_vs_one: twoVsOne === null ? null : ratio(twoVsOne, 1),
  idempotent_validate_vs_validate: ratio(idempotent.reqPerSec, sqliteMany.reqPerSec),
  postgres_idempotent_validate_vs_validate:
    pgIdempotent && pgPlainPaired ? ratio(pgIdempotent.reqPerSec, pgPlainPaired.reqPerSec) : null,
  reference_validate_vs_validate: ratio(referenceValidate.reqPerSec, sqliteMany.reqPerSec),
  batch_us_per_iban_1000: rounded(usPerIban1000, 2),
  batch_us_per_iban_100: rounded(usPerIban100, 2),
  extract_us_per_kb: rounded(extractUsPerKb, 1),
  // The start-up figures are bench/startup.ts's, `rss_mb` its RSS at start.
  startup_ms: startup.startup_ms,
  rss_mb: startup.rss_start_mb,
  rss_after_load_mb: rssAfterLoad,
  cpu_us_per_req: {
    baseline: rounded(base.cpuUsPerReq, 0),
    sqlite_validate: rounded(sqliteMany.cpuUsPerReq, 0),
    sqlite_idempotent_validate: rounded(idempotent.cpuUsPerReq, 0),
    sqlite_reference_validate: rounded(referenceValidate.cpuUsPerReq, 0),
    postgres_validate: rounded(pgOneFigures?.cpuUsPerReq ?? null, 0),
    postgres_idempotent_validate: rounded(pgIdempotent?.cpuUsPerReq ?? null, 0),
  },
};
if (quick) {
  console.log(JSON.stringify(results, null, 2));
  process.exit(0);
}
writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);

const pct = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
const fixed = (x: number | null, decimals: number) => (x === null ? '–' : x.toFixed(decimals));
const pgMet = pgRuns ? pgRuns.filter((r) => r >= 0.6).length : 0;
const cpuOf = (x: Figures) => x.cpuUsPerReq ?? Number.NaN;
const targets = [
  `- SQLite, authenticated validate ≥ 80 % of the baseline's req/s in the same run: ${pct(sqliteMany.reqPerSec, base.reqPerSec)}, ${verdict(sqliteMany.reqPerSec >= 0.8 * base.reqPerSec)} (server CPU ${Math.round(cpuOf(sqliteMany))} µs/req against ${Math.round(cpuOf(base))}).`,
  pgOneFigures && pgRuns
    ? `- PostgreSQL, one process ≥ 60 % of SQLite's req/s, pinned, in at least two thirds of the rounds (4 of 5): ${pct(pgOneFigures.reqPerSec, sqliteMany.reqPerSec)} (median), round by round ${pgRuns.map((r) => `${Math.round(r * 100)} %`).join(', ')}: ${pgMet} of ${pgRuns.length}, ${verdict(pgMet >= Math.min(2, pgRuns.length) && pgMet * 3 >= pgRuns.length * 2)} (server CPU ${Math.round(cpuOf(pgOneFigures))} µs/req against SQLite's ${Math.round(cpuOf(sqliteMany))}).`
    : '- PostgreSQL: not measured in this run.',
  `- Batch: server CPU per IBAN ≤ 5 µs at 1000 per call, and not above 100 per call: ${fixed(usPerIban1000, 2)} µs at 1000, ${fixed(usPerIban100, 2)} µs at 100 per call, ${verdict(usPerIban1000 !== null && usPerIban100 !== null && usPerIban1000 <= 5 && usPerIban1000 <= usPerIban100)}.`,
  `- Idempotency-Key costs ≤ 10 % of a validate: with a fresh key per request, ${pct(idempotent.reqPerSec, sqliteMany.reqPerSec)} of the plain validate's req/s, server CPU ${Math.round(cpuOf(idempotent))} µs/req against ${Math.round(cpuOf(sqliteMany))} (+${Math.round((cpuOf(idempotent) / cpuOf(sqliteMany) - 1) * 100)} %), ${verdict(idempotent.reqPerSec * 1.1 >= sqliteMany.reqPerSec)}.`,
  ...(pgIdempotent && pgPlainPaired
    ? [
        `- Idempotency-Key on PostgreSQL (no target; a pair of loads of its own, 3 rounds): ${pct(pgIdempotent.reqPerSec, pgPlainPaired.reqPerSec)} of the plain validate's req/s on one process, server CPU ${Math.round(cpuOf(pgIdempotent))} µs/req against ${Math.round(cpuOf(pgPlainPaired))}.`,
      ]
    : []),
  `- Reference validate against IBAN validate (both metered on the same key set, in the same rounds): ${pct(referenceValidate.reqPerSec, sqliteMany.reqPerSec)} of its req/s, server CPU ${Math.round(cpuOf(referenceValidate))} µs/req against ${Math.round(cpuOf(sqliteMany))}.`,
  `- Extract: ${fixed(extractUsPerKb, 1)} µs of server CPU per 1,000 characters of text (the whole call, at the ${EXTRACT_TEXT.length.toLocaleString('en-US')}-character limit).`,
  `- RSS after the load ≤ 200 MB: ${rssAfterLoad} MB after all the SQLite runs above (50 batches of 1000 in flight included), ${verdict(rssAfterLoad <= 200)}.`,
  startup.startup_ms !== null
    ? `- Start-up (\`npm run bench:startup\`, ${previous.startup_measured_at ?? 'undated'}): ${startup.startup_ms} ms to the first /healthz answer against ${startup.bare_startup_ms} ms for a bare Fastify server (${startup.startup_vs_bare}×), RSS ${startup.rss_start_mb} MB at start.`
    : '- Start-up: not measured (run `npm run bench:startup`).',
  pgFreeVsSqlite !== null
    ? `- The same comparison with every process unpinned (the scheduler balancing the server, PostgreSQL and the generator over the two cores): ${Math.round(pgFreeVsSqlite * 100)} %, ${verdict(pgFreeVsSqlite >= 0.6)}.`
    : '',
  twoVsOne !== null
    ? `- Two PostgreSQL processes against one, both unpinned: ${Math.round(twoVsOne * 100)} % of one. This 2-core machine runs both servers, PostgreSQL and the generator on the same two cores, so it cannot show the scaling two processes give when each has a core: the figure measures how two servers, PostgreSQL and the generator share two cores, not scaling.`
    : '',
].filter(Boolean);

writeSection(
  'load',
  `## Load (\`npm run bench\`)

Generated ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`bench/run.ts\` in ${Math.round((Date.now() - started) / 1000)} s; the ratios also in \`bench/results.json\`.
Load generator: ${generator === 'wrk' ? "Debian's wrk (one thread)" : 'autocannon (wrk not installed; autocannon tops out near 31k req/s on its own core)'}, ${CONNECTIONS} connections unless the row says otherwise, POST with JSON bodies. ${pinned ? 'Each server process is pinned to core 0 and the generator to core 1 (taskset); PostgreSQL itself is not pinned.' : 'Not pinned (taskset or a second core missing).'}
The ratio targets run side by side and are measured interleaved (baseline, SQLite, PostgreSQL, baseline, ...): each figure is the median of ${opts.rounds} rounds of ${opts.seconds} s after a ${opts.warmupSeconds} s warm-up; p50/p99 are medians over the rounds.
"server CPU µs/req" is the user + system time of the mod97 (or baseline) processes divided by the requests answered (PostgreSQL's own CPU is not in it): it does not depend on how the cores were shared during the run, so it is the steadier figure to compare.

${machine(pgVersion)}

${table(rows, base.reqPerSec)}

Targets (reported, not asserted):
${targets.join('\n')}
`,
);
console.log('docs/benchmarks.md and bench/results.json updated');
