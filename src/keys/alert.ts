/**
 * The creation alert (docs/api.md, "Creation alert"): more than 50 anonymous keys created
 * service-wide within 10 minutes start it, and the 51st is already reduced; it lasts 3 hours
 * after the last such burst. State lives in the store, so it survives restarts and holds
 * across processes.
 *
 * Each alert is identified by its start time, and a key born in it records that identity: a
 * key is reduced only while the alert it was born in is still on (bursts that extend it keep
 * its identity), never by a later, unrelated alert.
 */
import type { Clock } from '../clock.ts';
import { LIMITS } from '../plans.ts';
import type { AlertState, Store } from '../store/types.ts';

const MINUTE = 60_000;

export class CreationAlert {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** The alert on right now, or null. */
  async current(): Promise<AlertState | null> {
    const latest = await this.store.latestAlert();
    return latest && latest.endsAt > this.clock() ? latest : null;
  }

  async isActive(): Promise<boolean> {
    return (await this.current()) !== null;
  }

  /** Whether the alert identified by `alertId` (a key's birth alert) is still on. */
  async isStillOn(alertId: number | null | undefined): Promise<boolean> {
    if (alertId === null || alertId === undefined) return false;
    return (await this.current())?.startedAt === alertId;
  }

  /**
   * Counts one anonymous creation; returns the identity of the alert this key is born in, or
   * null when it is born outside one.
   */
  async recordAnonymousCreation(): Promise<number | null> {
    const now = this.clock();
    const recent = await this.store.countAnonymousCreation(now, LIMITS.alertWindowMinutes * 60);
    if (recent > LIMITS.alertThreshold) {
      return (await this.store.extendAlert(now, now + LIMITS.alertHours * 60 * MINUTE)).startedAt;
    }
    return (await this.current())?.startedAt ?? null;
  }
}
