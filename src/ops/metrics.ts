/**
 * Prometheus metrics: requests by route and status, quota admissions, refunds and 402s, and
 * the latency of every store call. Each app gets its own registry (tests run several apps in
 * one process); the process metrics (CPU, memory, event-loop lag) are registered once.
 */
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Store } from '../store/types.ts';

let processRegistry: Registry | null = null;

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'mod97_http_requests_total',
    help: 'HTTP requests answered, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'mod97_http_request_duration_seconds',
    help: 'Time to answer a request, by route template.',
    labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  readonly admits = new Counter({
    name: 'mod97_counter_admits_total',
    help: 'Atomic admissions by counter scope (key = quota, trial = no-key trial, others = limits); result admitted or refused.',
    labelNames: ['scope', 'result'] as const,
    registers: [this.registry],
  });
  readonly refunds = new Counter({
    name: 'mod97_counter_refunds_total',
    help: 'Refunds (a call answered 4xx/5xx, or an undone step), by counter scope.',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });
  readonly paymentRequired = new Counter({
    name: 'mod97_payment_required_total',
    help: '402 answers by reason: quota_exhausted, trial_exhausted, key_or_payment_required.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly storeSeconds = new Histogram({
    name: 'mod97_store_call_duration_seconds',
    help: 'Latency of store calls, by method.',
    labelNames: ['method'] as const,
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1],
    registers: [this.registry],
  });

  constructor() {
    if (!processRegistry) {
      processRegistry = new Registry();
      collectDefaultMetrics({ register: processRegistry, prefix: 'mod97_' });
    }
  }

  async text(): Promise<string> {
    return `${await processRegistry!.metrics()}\n${await this.registry.metrics()}`;
  }

  /**
   * Times every store method in place. The services already hold this store object, so
   * wrapping its methods (not replacing the object) reaches every caller. The cost is one
   * performance.now() pair and one histogram observation per call, about a microsecond.
   */
  instrument(store: Store): void {
    if (instrumented.has(store)) return;
    instrumented.add(store);
    const target = store as unknown as Record<string, unknown>;
    for (const [name, fn] of Object.entries(target)) {
      if (typeof fn !== 'function' || name === 'close') continue;
      const timer = this.storeSeconds.labels(name);
      target[name] = async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (fn as (...a: unknown[]) => Promise<unknown>).apply(store, args);
        } finally {
          timer.observe((performance.now() - started) / 1000);
        }
      };
    }
    const { admit, refund, admitAll, refundAll } = store;
    store.admit = async (ref, cost, limit) => {
      const used = await admit(ref, cost, limit);
      this.admits.inc({ scope: ref.scope, result: used === null ? 'refused' : 'admitted' });
      return used;
    };
    store.refund = async (ref, cost) => {
      const used = await refund(ref, cost);
      this.refunds.inc({ scope: ref.scope });
      return used;
    };
    // Linked counters (a key born in an alert also counts in its month) count once, by the governing one.
    store.admitAll = async (parts, cost) => {
      const used = await admitAll(parts, cost);
      if (parts[0]) this.admits.inc({ scope: parts[0].ref.scope, result: used === null ? 'refused' : 'admitted' });
      return used;
    };
    store.refundAll = async (refs, cost) => {
      const used = await refundAll(refs, cost);
      if (refs[0]) this.refunds.inc({ scope: refs[0].scope });
      return used;
    };
  }
}

const instrumented = new WeakSet<Store>();
