import type { Database } from 'better-sqlite3';
import type { DailyUse, DailyUsageStore } from '../types.ts';

export function sqliteDaily(db: Database): DailyUsageStore {
  const add = db.prepare(`INSERT INTO daily_usage (key_id, day, used) VALUES (@keyId, @day, @used)
    ON CONFLICT (key_id, day) DO UPDATE SET used = daily_usage.used + excluded.used`);
  const addAll = db.transaction((entries: { keyId: string; day: string; used: number }[]) => {
    for (const e of entries) add.run(e);
  });
  const range = db.prepare<[string, string, string], DailyUse>(
    'SELECT day, used FROM daily_usage WHERE key_id = ? AND day >= ? AND day <= ? ORDER BY day',
  );
  return {
    async addDailyUsage(entries) {
      if (entries.length) addAll(entries);
    },
    async dailyUsage(keyId, fromDay, toDay) {
      return range.all(keyId, fromDay, toDay);
    },
  };
}
