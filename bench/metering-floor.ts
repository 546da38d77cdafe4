/**
 * `node --import tsx bench/metering-floor.ts`: how far the bare baseline (baseline.ts) is from the
 * least an authenticated, metered validate can cost (metering-floor-server.ts), and mod97's
 * validate (the server as `npm start` runs it) from both, in interleaved rounds on the load
 * benchmark's harness (load.ts: wrk, 50 connections, 1,000 keys, server pinned to core 0).
 * Writes the metering-floor section of docs/benchmarks.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_IBAN, type Figures, measureInterleaved } from './load.ts';
import { writeSection } from './report.ts';
import { buildBundles, SERVER, seedKeys, startTarget, type Target } from './targets.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

buildBundles();
const dir = mkdtempSync(join(tmpdir(), 'mod97-floor-'));
const sqliteUrl = `sqlite:${join(dir, 'mod97.db')}`;
const keys = await seedKeys(sqliteUrl, 1000);
const keysFile = join(dir, 'keys.txt');
writeFileSync(keysFile, keys.join('\n'));
const targets: [string, Target][] = [
  ['bare Fastify route (baseline.ts)', await startTarget('bench/baseline.ts')],
  [
    'floor: + keyed hash, lookup, one counter update per call, quota headers',
    await startTarget('bench/metering-floor-server.ts', { FLOOR_DIR: dir, FLOOR_KEYS: keysFile }),
  ],
  ['mod97 validate', await startTarget(SERVER, { MOD97_DATABASE_URL: sqliteUrl })],
];
const figures = await measureInterleaved(
  targets.map(([name, t]) => ({
    name,
    urls: [t.url],
    cpuMs: () => t.cpuMs(),
    path: '/v1/iban/validate',
    body: JSON.stringify({ iban: BENCH_IBAN }),
    keys,
  })),
  { rounds: ROUNDS, seconds: 5, warmupSeconds: 2 },
  (name, f) => console.log(`${name}: ${Math.round(f.reqPerSec)} req/s, ${Math.round(f.cpuUsPerReq ?? 0)} µs CPU/req`),
);
for (const [, t] of targets) await t.stop();
rmSync(dir, { recursive: true, force: true });

const of = (i: number): Figures => figures.get(targets[i]![0])!;
const [bare, floor, mod97] = [of(0), of(1), of(2)];
const ratio = (a: Figures, b: Figures) => (a.reqPerSec / b.reqPerSec).toFixed(2);
const cpu = (f: Figures) => Math.round(f.cpuUsPerReq ?? Number.NaN);
writeSection(
  'metering-floor',
  `## What a metered validate cannot cost less than (\`bench/metering-floor.ts\`)

Generated ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node --import tsx bench/metering-floor.ts\`, Node ${process.version}: the load benchmark's harness (wrk, 50 connections, 1,000 keys, each server pinned to core 0, the generator to core 1), ${ROUNDS} interleaved rounds of 5 s, medians.
The floor server (\`bench/metering-floor-server.ts\`) is the bare route plus only what every authenticated, metered call must do: the keyed hash of the key sent, its lookup in memory, one counter update committed with the others of its turn of the event loop (SQLite, WAL, as mod97's counters), and the quota headers.

| server | req/s | server CPU µs/req | req/s against the bare route |
|---|---:|---:|---:|
| ${targets[0]![0]} | ${Math.round(bare.reqPerSec).toLocaleString('en-US')} | ${cpu(bare)} | 1.00 |
| ${targets[1]![0]} | ${Math.round(floor.reqPerSec).toLocaleString('en-US')} | ${cpu(floor)} | ${ratio(floor, bare)} |
| ${targets[2]![0]} | ${Math.round(mod97.reqPerSec).toLocaleString('en-US')} | ${cpu(mod97)} | ${ratio(mod97, bare)} |

mod97 against the floor: ${ratio(mod97, floor)} of its req/s. The floor is what no design that meters each call in a database can go below; a target for mod97 above the floor's ratio cannot be met by making mod97's own code faster.
`,
);
