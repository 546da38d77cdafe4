/**
 * The two per-request metrics, counted by plain increments. prom-client's labelled children
 * hash their label values on every increment and every observation, which showed in the
 * profile of every request; these are bound to their series by one Map lookup each and
 * exposed in prom-client's own format (Registry.registerMetric), so /metrics reads the same.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

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
    const answers = () =>
      [...this.answers.values()].map(({ method, route, status, count }) => ({
        value: count,
        labels: { method, route, status },
      }));
    registry.registerMetric(
      scrapedCounter('mod97_http_requests_total', 'HTTP requests answered, by route template and status.', {
        samples: answers,
        clear: () => this.answers.clear(),
      }),
    );
    registry.registerMetric(
      scrapedHistogram('mod97_http_request_duration_seconds', 'Time to answer a request, by route template.', {
        samples: () => [...this.durations].flatMap(([route, d]) => histogramSamples(route, d)),
        clear: () => this.durations.clear(),
      }),
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
}

/** Where a metric's samples come from when /metrics is scraped, and how its reset clears them. */
interface OwnSamples {
  samples: () => Sample[];
  clear: () => void;
}

/** A prom-client counter (its name, help and type as prom-client writes them) with our samples. */
function scrapedCounter(name: string, help: string, own: OwnSamples): Counter {
  const Scraped = class extends Counter {
    override async get() {
      return { ...(await super.get()), values: own.samples() };
    }
    override reset() {
      super.reset();
      own.clear();
    }
  };
  return new Scraped({ name, help, registers: [] });
}

/** The same for a histogram: the samples are its buckets, sum and count. */
function scrapedHistogram(name: string, help: string, own: OwnSamples): Histogram {
  const Scraped = class extends Histogram {
    // prom-client's registry writes a histogram from this method (its samples flat, each with
    // its metric name), not from get().
    async getForPromString() {
      return { name, help, type: 'histogram', values: own.samples(), aggregator: 'sum' };
    }
    override reset() {
      super.reset();
      own.clear();
    }
  };
  return new Scraped({ name, help, registers: [] });
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
