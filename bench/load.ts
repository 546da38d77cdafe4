/**
 * The load generator and the interleaved measurement. wrk (Debian's) drives the load when it is
 * installed, pinned to its own core; autocannon, which saturates its own core at about 31k req/s,
 * is the fallback. Targets are measured in rounds, A B C A B C, so a slow phase of this shared
 * machine falls on every target alike, and each figure is the median over the rounds.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export const BENCH_IBAN = 'DE89 3704 0044 0532 0130 00';
export const CONNECTIONS = 50;
const WRK_SCRIPT = fileURLToPath(new URL('./wrk.lua', import.meta.url));

export interface Figures {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and socket errors or timeouts, summed over the runs. */
  failures: number;
  /** Server CPU time per answered request (all target processes), median over the runs: steadier than req/s on a shared machine. */
  cpuUsPerReq: number | null;
  /** req/s of each round, in order: rounds of interleaved loads can be compared one by one. */
  roundReqPerSec: number[];
}

export interface Load {
  name: string;
  urls: string[];
  path: string;
  body: string;
  /** API keys sent in turn as Authorization: Bearer. */
  keys?: string[];
  /** The no-key trial: a new X-Forwarded-For network every 20 requests. */
  forwarded?: boolean;
  /** A fresh Idempotency-Key on every request: the cost of a first request that is kept for its retries. */
  idempotencyKeys?: boolean;
  /** CPU ms used so far by the processes under load. */
  cpuMs?: () => number;
  connections?: number;
}

interface Run {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  failures: number;
}

const has = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const generator = has('wrk') ? 'wrk' : 'autocannon';
/** Server on core 0, generator on core 1, where the machine has two cores and taskset. */
export const pinned = cpus().length >= 2 && has('taskset');
export const serverPrefix = (): string[] => (pinned ? ['taskset', '-c', '0'] : []);

/** Every load measured in interleaved rounds after one warm-up each; figures per load name. */
export async function measureInterleaved(
  loads: Load[],
  opts: { rounds: number; seconds: number; warmupSeconds: number },
  onFigure: (name: string, f: Figures) => void = () => {},
): Promise<Map<string, Figures>> {
  for (const load of loads) await once(load, opts.warmupSeconds);
  const runs = new Map<string, { run: Run; cpuUs: number | null }[]>(loads.map((l) => [l.name, []]));
  for (let r = 0; r < opts.rounds; r++) {
    for (const load of loads) {
      const cpuBefore = load.cpuMs?.();
      const run = await once(load, opts.seconds);
      const cpuUs =
        cpuBefore !== undefined && run.requests > 0 ? ((load.cpuMs!() - cpuBefore) * 1000) / run.requests : null;
      runs.get(load.name)!.push({ run, cpuUs });
    }
  }
  const figures = new Map<string, Figures>();
  for (const [name, rs] of runs) {
    const cpu = rs.map((x) => x.cpuUs).filter((x): x is number => x !== null);
    const f = {
      reqPerSec: median(rs.map((x) => x.run.requests / x.run.seconds)),
      p50: round2(median(rs.map((x) => x.run.p50))),
      p99: round2(median(rs.map((x) => x.run.p99))),
      failures: rs.reduce((n, x) => n + x.run.failures, 0),
      cpuUsPerReq: cpu.length ? median(cpu) : null,
      roundReqPerSec: rs.map((x) => x.run.requests / x.run.seconds),
    };
    figures.set(name, f);
    onFigure(name, f);
  }
  return figures;
}

/** One run of `seconds` against every URL of the load at once (connections split between them). */
async function once(load: Load, seconds: number): Promise<Run> {
  const connections = load.connections ?? CONNECTIONS;
  const per = Math.max(1, Math.floor(connections / load.urls.length));
  const runs = await Promise.all(
    load.urls.map((url) => (generator === 'wrk' ? wrk : cannon)(load, `${url}${load.path}`, per, seconds)),
  );
  return {
    requests: runs.reduce((n, r) => n + r.requests, 0),
    seconds: Math.max(...runs.map((r) => r.seconds)),
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    failures: runs.reduce((n, r) => n + r.failures, 0),
  };
}

let wrkRuns = 0;

async function wrk(load: Load, url: string, connections: number, seconds: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-wrk-'));
  try {
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    env.WRK_BODY_FILE = join(dir, 'body.json');
    writeFileSync(env.WRK_BODY_FILE, load.body);
    if (load.keys) {
      env.WRK_KEYS = join(dir, 'keys.txt');
      writeFileSync(env.WRK_KEYS, `${load.keys.join('\n')}\n`);
    }
    if (load.forwarded) env.WRK_FORWARDED = '1';
    if (load.idempotencyKeys) env.WRK_IDEMPOTENCY = '1';
    // Every run starts its request count further on, so no trial network is used twice.
    env.WRK_OFFSET = String(++wrkRuns * 10_000_000);
    // A slow answer counts in the latency, not as a failure: wrk gives up after 2 s unless told (autocannon after 10 s).
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', WRK_SCRIPT, url];
    const [cmd, ...rest] = pinned ? ['taskset', '-c', '1', 'wrk', ...args] : ['wrk', ...args];
    const { stdout } = await promisify(execFile)(cmd, rest, { env, maxBuffer: 1 << 20 });
    const line = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
    const s = JSON.parse(line.slice('WRK_JSON '.length));
    return {
      requests: s.requests,
      seconds: s.duration_us / 1e6,
      p50: Math.round(s.p50_us / 100) / 10,
      p99: Math.round(s.p99_us / 100) / 10,
      failures: s.non2xx + s.errors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let counter = 0;

async function cannon(load: Load, url: string, connections: number, seconds: number): Promise<Run> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = counter++;
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (load.keys) headers.authorization = `Bearer ${load.keys[i % load.keys.length]}`;
          if (load.forwarded) {
            const n = Math.floor(i / 20);
            headers['x-forwarded-for'] = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
          }
          if (load.idempotencyKeys) headers['idempotency-key'] = `bench-${i}`;
          return { ...req, body: load.body, headers };
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
