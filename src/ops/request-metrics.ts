/**
 * The two per-request metrics, counted by plain increments. prom-client's labelled children
 * hash their label values on every increment and every observation, which showed in the
 * profile of every request; these are bound to their series by one Map lookup each and
 * exposed in prom-client's own format (Registry.registerMetric), so /metrics reads the same.
 */
import type { Registry } from 'prom-client';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

interface Durations {
  /** Observations per bucket (not yet cumulative), the last for those above every bound. */
  counts: number[];
  sum: number;
}

export class RequestMetrics {
  private readonly answers = new Map<string, { method: string; route: string; status: number; count: number }>();
  private readonly durations = new Map<string, Durations>();

  constructor(registry: Registry) {
    registry.registerMetric(
      this.metric('mod97_http_requests_total', 'HTTP requests answered, by route template and status.', 'counter', () =>
        [...this.answers.values()].map(({ method, route, status, count }) => ({
          value: count,
          labels: { method, route, status },
        })),
      ),
    );
    registry.registerMetric(
      this.metric(
        'mod97_http_request_duration_seconds',
        'Time to answer a request, by route template.',
        'histogram',
        () => [...this.durations].flatMap(([route, d]) => histogramSamples(route, d)),
      ),
    );
  }

  answered(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    const answer = this.answers.get(key);
    if (answer) answer.count++;
    else this.answers.set(key, { method, route, status, count: 1 });
    let d = this.durations.get(route);
    if (!d) {
      d = { counts: new Array(BUCKETS.length + 1).fill(0), sum: 0 };
      this.durations.set(route, d);
    }
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
    d.counts[i]++;
    d.sum += seconds;
  }

  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]) {
    // The shape prom-client's Registry reads from a metric (name, help, type, get, reset).
    const metric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => (type === 'counter' ? this.answers.clear() : this.durations.clear()),
    };
    return metric as unknown as Parameters<Registry['registerMetric']>[0];
  }
}

function histogramSamples(route: string, d: Durations): Sample[] {
  const name = 'mod97_http_request_duration_seconds';
  const samples: Sample[] = [];
  let cumulative = 0;
  for (let i = 0; i < BUCKETS.length; i++) {
    cumulative += d.counts[i];
    samples.push({ metricName: `${name}_bucket`, labels: { le: BUCKETS[i], route }, value: cumulative });
  }
  cumulative += d.counts[BUCKETS.length];
  samples.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', route }, value: cumulative });
  samples.push({ metricName: `${name}_sum`, labels: { route }, value: d.sum });
  samples.push({ metricName: `${name}_count`, labels: { route }, value: cumulative });
  return samples;
}
