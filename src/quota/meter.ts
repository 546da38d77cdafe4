/**
 * Metering: admit the whole cost or nothing, in one atomic store step; refund on failure.
 * The trial and the keys share the same counter primitive.
 */
import { dayOf, type Clock } from '../clock.ts';
import type { CreationAlert } from '../keys/alert.ts';
import { LIMITS } from '../plans.ts';
import type { CounterRef, KeyRow, Store } from '../store/types.ts';
import { effectivePlan, type EffectivePlan } from './plan.ts';

export interface Balance {
  plan: EffectivePlan;
  used: number;
}

export interface Admission extends Balance {
  admitted: boolean;
}

export class Meter {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly alert: CreationAlert,
  ) {}

  async planFor(key: KeyRow): Promise<EffectivePlan> {
    const alertActive = key.alertBorn ? await this.alert.isActive() : false;
    return effectivePlan(key, this.clock(), alertActive);
  }

  async admitKey(key: KeyRow, cost: number): Promise<Admission> {
    const plan = await this.planFor(key);
    const used = await this.store.admit(plan.counter, cost, plan.limit);
    if (used !== null) return { admitted: true, plan, used };
    return { admitted: false, plan, used: await this.store.read(plan.counter) };
  }

  async balance(key: KeyRow): Promise<Balance> {
    const plan = await this.planFor(key);
    return { plan, used: await this.store.read(plan.counter) };
  }

  refund(counter: CounterRef, cost: number): Promise<number> {
    return this.store.refund(counter, cost);
  }

  trialCounter(network: string): CounterRef {
    return { scope: 'trial', subject: network, period: dayOf(this.clock()) };
  }

  /** One no-key validate call: 25 per network per UTC day. */
  async admitTrial(network: string): Promise<{ admitted: boolean; used: number; counter: CounterRef }> {
    const counter = this.trialCounter(network);
    const used = await this.store.admit(counter, 1, LIMITS.trialPerDay);
    if (used !== null) return { admitted: true, used, counter };
    return { admitted: false, used: await this.store.read(counter), counter };
  }

  async trialUsed(network: string): Promise<number> {
    return this.store.read(this.trialCounter(network));
  }
}
