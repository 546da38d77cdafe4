/** The systems under load, each in its own child process, and the keys they are loaded with. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { keyedHash, newSecret } from '../src/keys/secret.ts';
import { openStore } from '../src/store/index.ts';
import { freePort } from '../test/support/loopback.ts';
import { NPM_START_NODE_OPTIONS } from '../test/support/npm-start.ts';
import { cpuMsOf, residentMib } from '../test/support/proc.ts';
import { serverPrefix } from './load.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The server as `npm start` runs it: the bundle of the sources, with the node options of that script. */
export const SERVER = 'dist/server.js';

/** Builds SERVER and the `mod97` command (dist/cli.js) from the sources as they are now (scripts/build.mjs). */
export function buildBundles(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--bundles'], { cwd: ROOT, stdio: 'inherit' });
}

export const PEPPER = 'bench-pepper-0123456789abcdef0123456789abcdef';

export interface Target {
  url: string;
  /** CPU time (user + system) the target process has used so far, in ms. */
  cpuMs(): number;
  /** Resident memory of the target process now, in MB. */
  rssMb(): number;
  /** From spawn until /healthz first answered, in ms. */
  startMs: number;
  stop(): Promise<void>;
}

/** Starts `script` (relative to the repo) on a free port and waits until /healthz answers. */
export async function startTarget(
  script: string,
  env: Record<string, string> = {},
  opts: { pin?: boolean } = {},
): Promise<Target> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir> writes a .cpuprofile per target process, to find a hot path.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // dist/server.js runs as `npm start` runs it (run.ts builds it first); TypeScript through tsx.
  // Pinned to the server's core unless told otherwise (taskset execs node: the pid is node's).
  const [cmd, ...prefix] = [...(opts.pin === false ? [] : serverPrefix()), process.execPath];
  const options = script === SERVER ? NPM_START_NODE_OPTIONS : [];
  const node = [...profile, ...options, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script];
  const child = spawn(cmd, [...prefix, ...node], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MOD97_LOG_LEVEL: 'warn',
      MOD97_KEY_PEPPER: PEPPER,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    if (await answers(`${url}/healthz`)) break;
    if (performance.now() - spawned > 30_000) throw new Error(`${script} did not start`);
    await sleep(10);
  }
  const startMs = performance.now() - spawned;
  return {
    url,
    startMs,
    cpuMs: () => cpuMsOf(`/proc/${child.pid}/stat`),
    rssMb: () => Math.round(residentMib(child.pid!)),
    stop: () => stopChild(child),
  };
}

/**
 * Inserts `count` keys with a quota that will not run out, and returns their secrets. The limit
 * stays a small integer to V8 (under 2^30), as every real plan's is: over it, each X-Quota-* and
 * RateLimit-* value becomes a heap number whose text V8 allocates in the old space, garbage no
 * real key makes (docs/benchmarks.md, "The old space grows by direct allocation").
 */
export async function seedKeys(databaseUrl: string, count: number): Promise<string[]> {
  const store = await openStore(databaseUrl);
  const secrets: string[] = [];
  try {
    for (let i = 0; i < count; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, count - i) }, async () => {
          const { secret, prefix } = newSecret();
          secrets.push(secret);
          await store.insertKey({
            id: crypto.randomUUID(),
            keyHash: keyedHash(PEPPER, secret),
            keyPrefix: prefix,
            tier: 'pro',
            basis: 'monthly',
            limit: 1e9,
            lifetimePeriod: null,
            emailHash: null,
            network: '127.0.0.1',
            createdAt: Date.now(),
            alertBorn: false,
          });
        }),
      );
    }
  } finally {
    await store.close();
  }
  return secrets;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
