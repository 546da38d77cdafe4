/**
 * The governing cap of a key right now, and the counter it draws on. Derived at read time,
 * so month rollover and the end of a creation alert need no job.
 */
import { monthOf } from '../clock.ts';
import { LIMITS, PLAN } from '../plans.ts';
import type { CounterLimit, CounterRef } from '../store/types.ts';
import { type Basis, chargePeriodOf, type KeyRow, MONTH_OF_CALL } from '../records.ts';

/**
 * The counter a call is charged to. A key reduced by a creation alert also counts each call in
 * its month counter (`alsoCounts`), charged and refunded with it, so that once the alert is over
 * the month shows the use made during it. The object travels with the charge to the refund.
 */
export interface KeyCounter extends CounterRef {
  alsoCounts?: CounterLimit;
}

export interface EffectivePlan {
  basis: Basis;
  limit: number;
  counter: KeyCounter;
  /** Born in a creation alert that is still on. */
  reduced: boolean;
}

/** `birthAlertOn`: the creation alert the key was born in is still on (see keys/alert.ts). */
export function effectivePlan(key: KeyRow, now: number, birthAlertOn: boolean): EffectivePlan {
  const subject = key.id;
  const month: CounterRef = { scope: 'key', subject, period: monthOf(now) };
  if (key.alertBorn && key.tier === 'anonymous') {
    if (birthAlertOn) {
      // 5 over the key's life (no recharge on the 1st), each call also counted in its month.
      const counter: KeyCounter = {
        scope: 'key',
        subject,
        period: 'alert',
        alsoCounts: { ref: month, limit: PLAN.anonymous.limit },
      };
      return { basis: 'lifetime', limit: LIMITS.alertReducedLifetime, counter, reduced: true };
    }
    return { basis: 'monthly', limit: PLAN.anonymous.limit, counter: month, reduced: false };
  }
  const period = chargePeriodOf(key);
  const counter: CounterRef = period === MONTH_OF_CALL ? month : { scope: 'key', subject, period };
  return { basis: key.basis, limit: key.limit, counter, reduced: false };
}
