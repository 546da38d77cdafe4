import type { Database } from 'better-sqlite3';
import type { DatasetMeta, DatasetStore, SettingStore } from '../types.ts';
import type { Durably } from './durable.ts';
import { theRow } from './row.ts';

const META = 'kind, source, as_of AS asOf, as_of_basis AS asOfBasis, imported_at AS importedAt, record_count AS count';

export function sqliteDatasets(db: Database): DatasetStore {
  const put = db.prepare(`INSERT INTO datasets (kind, source, as_of, as_of_basis, imported_at, record_count, records)
    VALUES (@kind, @source, @asOf, @asOfBasis, @importedAt, @count, @records)
    ON CONFLICT (kind) DO UPDATE SET source = excluded.source, as_of = excluded.as_of, as_of_basis = excluded.as_of_basis,
    imported_at = excluded.imported_at, record_count = excluded.record_count, records = excluded.records`);
  const get = db.prepare<[string], DatasetMeta & { records: string }>(
    `SELECT ${META}, records FROM datasets WHERE kind = ?`,
  );
  const list = db.prepare<[], DatasetMeta>(`SELECT ${META} FROM datasets ORDER BY kind`);
  return {
    async putDataset(meta, records) {
      put.run({ ...meta, count: records.length, records: JSON.stringify(records) });
    },
    async getDataset(kind) {
      const row = get.get(kind);
      if (!row) return null;
      const { records, ...meta } = row;
      return { meta, records: JSON.parse(records) };
    },
    async listDatasets() {
      return list.all();
    },
  };
}

/** Settings (such as the pepper's fingerprint) are written once or rarely, and durably. */
export function sqliteSettings(db: Database, durably: Durably): SettingStore {
  const init = db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?');
  const set = db.prepare(
    'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );
  const read = (name: string) => get.get(name)?.value ?? null;
  return {
    async settingOrInit(name, value) {
      durably(() => init.run(name, value))();
      return theRow(get.get(name), 'the setting just initialised').value;
    },
    async getSetting(name) {
      return read(name);
    },
    async setSetting(name, value) {
      durably(() => set.run(name, value))();
    },
  };
}
