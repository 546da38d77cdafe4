/**
 * Calls per key and UTC day, for the usage chart. Statistics, not billing: admissions never
 * wait for it. Charged calls are added up in memory and written in one batch a second (and on
 * close), so a burst of thousands of calls costs one small write, off the request's path.
 */
import type { Clock } from '../clock.ts';
import { dayOf, monthOf } from '../clock.ts';
import type { DailyUse, Store } from '../store/types.ts';
import type { Basis } from '../records.ts';

const FLUSH_MS = 1000;
/** Bases without a month (lifetime grants, credits) chart this many days back from today. */
const ROLLING_DAYS = 30;

export class DailyUsage {
  /** Calls not yet written: day → key id → count. */
  private pending = new Map<string, Map<string, number>>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Counts `cost` charged calls for the key today. Synchronous: nothing is awaited. */
  add(keyId: string, cost: number): void {
    const day = dayOf(this.clock());
    let keys = this.pending.get(day);
    if (!keys) this.pending.set(day, (keys = new Map()));
    keys.set(keyId, (keys.get(keyId) ?? 0) + cost);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes what is pending; resolves once every earlier write has finished too. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending].flatMap(([day, keys]) => [...keys].map(([keyId, used]) => ({ keyId, day, used })));
    this.pending = new Map();
    this.writing = this.writing.then(async () => {
      if (!batch.length) return;
      // A failed write loses only chart statistics; the quota counters are untouched.
      await this.store.addDailyUsage(batch).catch(this.onError);
    });
    return this.writing;
  }

  /** Every day of the chart's window (the month so far, or the last 30 days), zeros included. */
  async days(keyId: string, basis: Basis): Promise<{ from: string; to: string; days: DailyUse[] }> {
    await this.flush();
    const now = this.clock();
    const to = dayOf(now);
    const from = basis === 'monthly' ? `${monthOf(now)}-01` : dayOf(now - (ROLLING_DAYS - 1) * 86_400_000);
    const stored = new Map((await this.store.dailyUsage(keyId, from, to)).map((d) => [d.day, d.used]));
    const days: DailyUse[] = [];
    for (let t = Date.parse(`${from}T00:00:00Z`); dayOf(t) <= to; t += 86_400_000) {
      days.push({ day: dayOf(t), used: stored.get(dayOf(t)) ?? 0 });
    }
    return { from, to, days };
  }
}
