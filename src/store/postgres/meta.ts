import type { DatasetMeta, DatasetStore, SettingStore } from '../types.ts';
import type { Pg } from './pg.ts';

const META =
  'kind, source, as_of AS "asOf", as_of_basis AS "asOfBasis", imported_at AS "importedAt", record_count AS count';

export function pgDatasets({ sql, idempotent }: Pg): DatasetStore {
  const meta = sql.unsafe(META);
  return {
    async putDataset(m, records) {
      await idempotent(
        () => sql`INSERT INTO datasets (kind, source, as_of, as_of_basis, imported_at, record_count, records)
        VALUES (${m.kind}, ${m.source}, ${m.asOf}, ${m.asOfBasis}, ${m.importedAt}::bigint, ${records.length}::integer, ${JSON.stringify(records)})
        ON CONFLICT (kind) DO UPDATE SET source = excluded.source, as_of = excluded.as_of, as_of_basis = excluded.as_of_basis,
        imported_at = excluded.imported_at, record_count = excluded.record_count, records = excluded.records`,
      );
    },
    async getDataset(kind) {
      const rows = await idempotent(
        () => sql<(DatasetMeta & { records: string })[]>`SELECT ${meta}, records FROM datasets WHERE kind = ${kind}`,
      );
      if (!rows.length) return null;
      const { records, ...rest } = rows[0];
      return { meta: { ...rest }, records: JSON.parse(records) };
    },
    async listDatasets() {
      const rows = await idempotent(() => sql<DatasetMeta[]>`SELECT ${meta} FROM datasets ORDER BY kind`);
      return rows.map((r) => ({ ...r }));
    },
  };
}

export function pgSettings({ sql, idempotent }: Pg): SettingStore {
  const get = async (name: string) => {
    const rows = await idempotent(() => sql<{ value: string }[]>`SELECT value FROM settings WHERE name = ${name}`);
    return rows.length ? rows[0].value : null;
  };
  return {
    async settingOrInit(name, value) {
      // Writing the stored value back onto itself makes RETURNING answer the winner in one step.
      const rows = await idempotent(
        () => sql<{ value: string }[]>`INSERT INTO settings (name, value) VALUES (${name}, ${value})
        ON CONFLICT (name) DO UPDATE SET value = settings.value RETURNING value`,
      );
      return rows[0].value;
    },
    getSetting: get,
    async setSetting(name, value) {
      await idempotent(
        () => sql`INSERT INTO settings (name, value) VALUES (${name}, ${value})
        ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
      );
    },
  };
}
