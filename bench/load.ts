/** autocannon runs and their medians. */
import autocannon from 'autocannon';

export const BENCH_IBAN = 'DE89 3704 0044 0532 0130 00';
export const CONNECTIONS = 50;

export interface Figures {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and socket errors or timeouts, summed over the runs. */
  failures: number;
  /** Server CPU time per answered request (all target processes), median over the runs: steadier than req/s on a shared machine. */
  cpuUsPerReq: number | null;
}

export interface Load {
  urls: string[];
  path: string;
  body: string | ((i: number) => string);
  /** Extra headers of request number i (a key, a forwarded address). */
  headers?: (i: number) => Record<string, string>;
  /** CPU ms used so far by the processes under load. */
  cpuMs?: () => number;
  /** Concurrent connections; CONNECTIONS unless set. */
  connections?: number;
}

export async function measure(
  load: Load,
  opts: { runs: number; seconds: number; warmupSeconds: number },
): Promise<Figures> {
  await once(load, opts.warmupSeconds);
  const results = [];
  const cpuPerReq: number[] = [];
  for (let r = 0; r < opts.runs; r++) {
    const cpuBefore = load.cpuMs?.();
    const result = await once(load, opts.seconds);
    results.push(result);
    if (cpuBefore !== undefined && result.requests.total > 0)
      cpuPerReq.push(((load.cpuMs!() - cpuBefore) * 1000) / result.requests.total);
  }
  return {
    reqPerSec: median(results.map((x) => x.requests.average)),
    p50: median(results.map((x) => x.latency.p50)),
    p99: median(results.map((x) => x.latency.p99)),
    failures: results.reduce((n, x) => n + x.non2xx + x.errors + x.timeouts, 0),
    cpuUsPerReq: cpuPerReq.length ? median(cpuPerReq) : null,
  };
}

let counter = 0;

function once(load: Load, seconds: number) {
  return autocannon({
    url: load.urls.map((u) => `${u}${load.path}`),
    connections: load.connections ?? CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: load.path,
        setupRequest: (req) => {
          const i = counter++;
          const body = typeof load.body === 'string' ? load.body : load.body(i);
          return { ...req, body, headers: { 'content-type': 'application/json', ...load.headers?.(i) } };
        },
      },
    ],
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
