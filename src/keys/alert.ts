/**
 * The creation alert (DECISIONS.md section 6): more than 50 anonymous keys service-wide in
 * 10 minutes starts it; it lasts 3 hours after the last such burst. State lives in the store,
 * so it survives restarts and holds across processes.
 */
import type { Clock } from '../clock.ts';
import { LIMITS } from '../plans.ts';
import type { Store } from '../store/types.ts';

const MINUTE = 60_000;
const UNLIMITED = Number.MAX_SAFE_INTEGER;

export class CreationAlert {
  constructor(private readonly store: Store, private readonly clock: Clock) {}

  async isActive(): Promise<boolean> {
    const until = Number((await this.store.getSetting('alert_until')) ?? 0);
    return until > this.clock();
  }

  /** Counts one anonymous creation; true when this key is born in an alert. */
  async recordAnonymousCreation(): Promise<boolean> {
    const now = this.clock();
    const minute = Math.floor(now / MINUTE);
    await this.store.admit(bucket(minute), 1, UNLIMITED);
    let recent = 0;
    for (let m = minute - LIMITS.alertWindowMinutes + 1; m <= minute; m++) {
      recent += await this.store.read(bucket(m));
    }
    if (recent > LIMITS.alertThreshold) {
      await this.store.setSetting('alert_until', String(now + LIMITS.alertHours * 60 * MINUTE));
      return true;
    }
    return this.isActive();
  }
}

const bucket = (minute: number) => ({ scope: 'alert', subject: 'anonymous_keys', period: String(minute) });
