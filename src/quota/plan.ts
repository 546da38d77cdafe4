/**
 * The governing cap of a key right now, and the counter it draws on. Derived at read time,
 * so month rollover and the end of a creation alert need no job.
 */
import { monthOf } from '../clock.ts';
import { LIMITS, PLAN } from '../plans.ts';
import type { Basis, CounterRef, KeyRow } from '../store/types.ts';

export interface EffectivePlan {
  basis: Basis;
  limit: number;
  counter: CounterRef;
  /** Born in a creation alert that is still on. */
  reduced: boolean;
}

export function effectivePlan(key: KeyRow, now: number, alertActive: boolean): EffectivePlan {
  const subject = key.id;
  if (key.alertBorn && key.tier === 'anonymous') {
    if (alertActive) {
      return { basis: 'lifetime', limit: LIMITS.alertReducedLifetime, counter: { scope: 'key', subject, period: 'alert' }, reduced: true };
    }
    return { basis: 'monthly', limit: PLAN.anonymous.limit, counter: { scope: 'key', subject, period: monthOf(now) }, reduced: false };
  }
  if (key.basis === 'monthly') {
    return { basis: 'monthly', limit: key.limit, counter: { scope: 'key', subject, period: monthOf(now) }, reduced: false };
  }
  const period = key.lifetimePeriod ?? key.basis;
  return { basis: key.basis, limit: key.limit, counter: { scope: 'key', subject, period }, reduced: false };
}
