import type { DailyUse, DailyUsageStore } from '../types.ts';
import type { Pg } from './pg.ts';

export function pgDaily({ sql, once, idempotent }: Pg): DailyUsageStore {
  return {
    async addDailyUsage(entries) {
      if (!entries.length) return;
      // One statement for the whole batch; `once`, because adding twice would count twice.
      await once(
        () => sql`INSERT INTO daily_usage (key_id, day, used)
        SELECT k, d, SUM(u) FROM unnest(${entries.map((e) => e.keyId)}::text[], ${entries.map((e) => e.day)}::text[],
          ${entries.map((e) => e.used)}::bigint[]) AS t(k, d, u) GROUP BY k, d
        ON CONFLICT (key_id, day) DO UPDATE SET used = daily_usage.used + excluded.used`,
      );
    },
    async dailyUsage(keyId, fromDay, toDay) {
      const rows = await idempotent(
        () => sql<DailyUse[]>`SELECT day, used FROM daily_usage
        WHERE key_id = ${keyId} AND day >= ${fromDay} AND day <= ${toDay} ORDER BY day`,
      );
      return [...rows];
    },
  };
}
