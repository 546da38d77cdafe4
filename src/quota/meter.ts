/**
 * Metering: admit the whole cost or nothing, in one atomic store step; refund on failure.
 * The trial and the keys share the same counter primitive.
 */
import { dayOf, monthOf, type Clock } from '../clock.ts';
import type { CreationAlert } from '../keys/alert.ts';
import { LIMITS } from '../plans.ts';
import type { CounterRef, IdempotencyHold, Store } from '../store/types.ts';
import type { KeyRow } from '../records.ts';
import { effectivePlan, type EffectivePlan, type KeyCounter } from './plan.ts';

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

  /** The store charges a key with its lookup (authenticateAndAdmit): PostgreSQL. */
  get admitsWithLookup(): boolean {
    return this.store.keyByHashAdmitting !== undefined;
  }

  async planFor(key: KeyRow): Promise<EffectivePlan> {
    // Only the alert the key was born in reduces it; the store is asked only for such keys.
    const birthAlertOn = key.alertBorn && key.tier === 'anonymous' ? await this.alert.isStillOn(key.alertId) : false;
    return effectivePlan(key, this.clock(), birthAlertOn);
  }

  /** `hold`: the Idempotency-Key the call holds, made durable with its charge (store/types.ts). */
  async admitKey(key: KeyRow, cost: number, hold?: IdempotencyHold): Promise<Admission> {
    const plan = await this.planFor(key);
    const { alsoCounts } = plan.counter;
    // Both counters in one transaction: the call fits both caps or is counted in neither.
    const used = alsoCounts
      ? ((await this.store.admitAll([{ ref: plan.counter, limit: plan.limit }, alsoCounts], cost, hold))?.[0] ?? null)
      : await this.store.admit(plan.counter, cost, plan.limit, hold);
    return this.admissionOf(plan, used);
  }

  /** `used` after a charge, or null when refused: then the balance it was refused at. */
  private async admissionOf(plan: EffectivePlan, used: number | null): Promise<Admission> {
    if (used !== null) return { admitted: true, plan, used };
    return { admitted: false, plan, used: await this.store.read(plan.counter) };
  }

  /**
   * The key of `keyHash` and `cost` charged to it in the same store call where the engine offers
   * it (admitsWithLookup); without `admission`, the caller admits with admitKey as usual.
   */
  async authenticateAndAdmit(keyHash: string, cost: number): Promise<{ key: KeyRow | null; admission?: Admission }> {
    const now = this.clock();
    const found = await this.store.keyByHashAdmitting?.(keyHash, cost, monthOf(now));
    if (!found) return { key: await this.store.keyByHash(keyHash) };
    const { key, charged } = found;
    if (!key || !charged) return { key };
    // The store charges only keys not born in a creation alert, whose plan the alert leaves alone.
    const plan = effectivePlan(key, now, false);
    if (charged.period === plan.counter.period) return { key, admission: await this.admissionOf(plan, charged.used) };
    // The period stored on the row is not the one this plan charges (a plan written without it):
    // the charge is given back and the call admitted as every other.
    if (charged.used !== null) await this.store.refund({ ...plan.counter, period: charged.period }, cost);
    return { key };
  }

  async balance(key: KeyRow): Promise<Balance> {
    const plan = await this.planFor(key);
    return { plan, used: await this.store.read(plan.counter) };
  }

  /** Gives a charge back from every counter it was taken from; returns the governing count. */
  async refund(counter: KeyCounter, cost: number): Promise<number> {
    if (!counter.alsoCounts) return this.store.refund(counter, cost);
    const [used] = await this.store.refundAll([counter, counter.alsoCounts.ref], cost);
    return used;
  }

  trialCounter(network: string): CounterRef {
    return { scope: 'trial', subject: network, period: dayOf(this.clock()) };
  }

  /** One no-key validate call: 25 per network per UTC day. */
  async admitTrial(
    network: string,
    hold?: IdempotencyHold,
  ): Promise<{ admitted: boolean; used: number; counter: CounterRef }> {
    const counter = this.trialCounter(network);
    const used = await this.store.admit(counter, 1, LIMITS.trialPerDay, hold);
    if (used !== null) return { admitted: true, used, counter };
    return { admitted: false, used: await this.store.read(counter), counter };
  }

  async trialUsed(network: string): Promise<number> {
    return this.store.read(this.trialCounter(network));
  }
}
