/**
 * `npm run bench:startup`: start-up of the server as `npm start` runs it (dist/server.js) against
 * a bare Fastify server (bench/bare-server.mjs), started in turn (bare, mod97, bare, ...), from
 * spawn to the first /healthz answer, and resident memory at that moment. Medians of
 * BENCH_STARTS (5) starts each, merged into bench/results.json as `startup_ms`,
 * `bare_startup_ms`, `rss_start_mb` and `bare_rss_start_mb`. Each mod97 start gets a new SQLite
 * database (migrations included, as at a first start). mod97 loads its reference data on the
 * first call that needs it: right after /healthz, one validation is sent and timed
 * (`first_data_call_ms`, that call's latency) with the resident memory after it
 * (`rss_after_first_call_mb`). What a caller waits for on a cold start is spawn to that first
 * answer: `first_answer_ms` (start-up plus the first validation, medians of the sums), compared
 * with the bare server's spawn to its first answer as `first_answer_vs_bare`, with the resident
 * memory after it as `rss_after_first_answer_mb`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './load.ts';
import { buildBundles, SERVER, startTarget } from './targets.ts';

const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));

buildBundles();
const dir = mkdtempSync(join(tmpdir(), 'mod97-startup-'));
const runs = { bare: [] as { ms: number; rss: number }[], mod97: [] as { ms: number; rss: number }[] };
const firstCalls: { ms: number; rss: number }[] = [];
const firstAnswers: { ms: number; rss: number }[] = [];
try {
  for (let i = 0; i < STARTS; i++) {
    for (const which of ['bare', 'mod97'] as const) {
      const target =
        which === 'bare'
          ? await startTarget('bench/bare-server.mjs')
          : await startTarget(SERVER, { MOD97_DATABASE_URL: `sqlite:${join(dir, `start-${i}.db`)}` });
      runs[which].push({ ms: target.startMs, rss: target.rssMb() });
      if (which === 'mod97') {
        const first = { ...(await firstDataCall(target.url)), rss: target.rssMb() };
        firstCalls.push(first);
        firstAnswers.push({ ms: target.startMs + first.ms, rss: first.rss });
      }
      await target.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const med = (xs: { ms: number; rss: number }[], key: 'ms' | 'rss') => Math.round(median(xs.map((x) => x[key])));
const figures = {
  startup_ms: med(runs.mod97, 'ms'),
  bare_startup_ms: med(runs.bare, 'ms'),
  rss_start_mb: med(runs.mod97, 'rss'),
  bare_rss_start_mb: med(runs.bare, 'rss'),
  startup_vs_bare: 0,
  first_data_call_ms: med(firstCalls, 'ms'),
  rss_after_first_call_mb: med(firstCalls, 'rss'),
  first_answer_ms: med(firstAnswers, 'ms'),
  first_answer_vs_bare: 0,
  rss_after_first_answer_mb: med(firstAnswers, 'rss'),
  startup_measured_at: new Date().toISOString(),
};
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
figures.startup_vs_bare = ratio(figures.startup_ms, figures.bare_startup_ms);
figures.first_answer_vs_bare = ratio(figures.first_answer_ms, figures.bare_startup_ms);
const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
writeFileSync(RESULTS, `${JSON.stringify({ ...previous, ...figures }, null, 2)}\n`);
console.log(
  `start-up, median of ${STARTS}: mod97 ${figures.startup_ms} ms, RSS ${figures.rss_start_mb} MB; bare Fastify ${figures.bare_startup_ms} ms, RSS ${figures.bare_rss_start_mb} MB (${figures.startup_vs_bare}x)`,
);
console.log(
  `the first call needing the data (it loads): ${figures.first_data_call_ms} ms, RSS after it ${figures.rss_after_first_call_mb} MB; spawn to that answer ${figures.first_answer_ms} ms (${figures.first_answer_vs_bare}x the bare server's first answer)`,
);
console.log(
  `each start (ms): mod97 ${runs.mod97.map((r) => Math.round(r.ms)).join(', ')}; bare ${runs.bare.map((r) => Math.round(r.ms)).join(', ')}`,
);

/** Times one validation, the first call after /healthz: it waits for the reference data to load. */
async function firstDataCall(url: string): Promise<{ ms: number }> {
  const sent = performance.now();
  const answer = await fetch(`${url}/v1/iban/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ iban: 'DE89370400440532013000' }),
  });
  const body = (await answer.json()) as { bank?: { bic?: string } };
  if (body.bank?.bic !== 'COBADEFFXXX') throw new Error(`the first validation answered ${JSON.stringify(body)}`);
  return { ms: performance.now() - sent };
}
