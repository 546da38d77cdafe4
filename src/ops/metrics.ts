/**
 * Prometheus metrics: requests by route and status, their latency, quota admissions, refunds
 * and 402s. Each app gets its own registry (tests run several apps in one process); the process metrics (CPU, memory, event-loop lag) are registered once.
 */
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { Store } from '../store/types.ts';
import { RequestMetrics } from './request-metrics.ts';

let processRegistry: Registry | null = null;

/** The process's own metrics (CPU, memory, event loop), registered once however many MetricsRegistry there are. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'mod97_' });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new RequestMetrics(this.registry);
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
  constructor() {
    processMetrics();
  }

  async text(): Promise<string> {
    return `${await processMetrics().metrics()}\n${await this.registry.metrics()}`;
  }

  /** Counts a request by route and status and observes its duration. */
  answered(method: string, route: string, status: number, seconds: number): void {
    this.requests.answered(method, route, status, seconds);
  }
  /**
   * Counts admissions and refunds by scope. Only the four counter methods are wrapped (every
   * store call was once timed too: a wrapper and a histogram on the path of every request);
   * the wrappers add one promise step and increment children bound once per scope.
   */
  instrument(store: Store): void {
    if (instrumented.has(store)) return;
    instrumented.add(store);
    const admits = new Map<string, { admitted: { inc(): void }; refused: { inc(): void } }>();
    const refunds = new Map<string, { inc(): void }>();
    const admitted = (scope: string, used: unknown) => {
      let children = admits.get(scope);
      if (!children) {
        children = { admitted: this.admits.labels(scope, 'admitted'), refused: this.admits.labels(scope, 'refused') };
        admits.set(scope, children);
      }
      (used === null ? children.refused : children.admitted).inc();
    };
    const refunded = (scope: string) => {
      let child = refunds.get(scope);
      if (!child) {
        child = this.refunds.labels(scope);
        refunds.set(scope, child);
      }
      child.inc();
    };
    const { admit, refund, admitAll, refundAll } = store;
    store.admit = (ref, cost, limit, hold) =>
      admit.call(store, ref, cost, limit, hold).then((used) => {
        admitted(ref.scope, used);
        return used;
      });
    store.refund = (ref, cost) =>
      refund.call(store, ref, cost).then((used) => {
        refunded(ref.scope);
        return used;
      });
    // Linked counters (a key born in an alert also counts in its month) count once, by the governing one.
    store.admitAll = (parts, cost, hold) =>
      admitAll.call(store, parts, cost, hold).then((used) => {
        if (parts[0]) admitted(parts[0].ref.scope, used);
        return used;
      });
    store.refundAll = (refs, cost) =>
      refundAll.call(store, refs, cost).then((used) => {
        if (refs[0]) refunded(refs[0].scope);
        return used;
      });
  }
}

const instrumented = new WeakSet<Store>();
