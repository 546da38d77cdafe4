/**
 * The bundled reference data as the build indexes it (scripts/compact-data.ts): a load without
 * imported datasets reads these tables instead of indexing the bundled files itself, which was
 * most of the first call's time and memory (docs/benchmarks.md, "Start-up"). Each table is read
 * on the first lookup that needs it, and each entry decoded when it is looked up: the first
 * validation reads only the bank codes and the German check methods.
 *
 * One folder per edition of the bundled files (the German delta applies from its date on), one
 * file per index of indexes.ts (compact-table.ts), and bundled.json for the rest of the load.
 * Written from the Indexes that loadBundled builds, so a lookup answers exactly as it does on
 * those (test/data/compact.test.ts compares every entry).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanctionsList } from './apply.ts';
import type { BundledData } from './bundled.ts';
import { type Cells, CompactTable, type TableFile, tableFile } from './compact-table.ts';
import type { IndexReader, Indexes, LeiEntry } from './indexes.ts';
import type { BankByCode, BicEntry, ClearingRecord, SanctionRecord } from './types.ts';
import { ROOT } from '../root.ts';

/** Where the build writes the compact data: one folder per edition under it. */
export const BUILT_DATA = join(ROOT, 'dist/data/bundled');

const required = (cell: string | null): string => {
  if (cell === null) throw new Error('compact bundled data: a required cell is null');
  return cell;
};

/** A BIC entry's cells after its key (its bic11): name, city, address, postcode, source, as_of. */
const BIC_ENTRY_CELLS = 6;

/** Each index's cells, and the value decoded from them: field for field as indexes.ts builds it. */
const CODECS = {
  bankCodes: {
    cells: (b: BankByCode): Cells => [b.bic, b.name, b.city, b.source, b.as_of],
    decode: ([bic, name, city, source, as_of]: Cells): BankByCode => ({
      bic,
      name,
      city,
      source: required(source),
      as_of,
    }),
  },
  bics: {
    // The bundled sources date every entry: none has an `as_of_note` (imports only).
    cells: (entries: BicEntry[]): Cells =>
      entries.flatMap((e) => [e.name, e.city, e.address, e.postcode, e.source, e.as_of]),
    decode: (cells: Cells, bic11: string): BicEntry[] => {
      const entries: BicEntry[] = [];
      for (let i = 0; i < cells.length; i += BIC_ENTRY_CELLS) {
        const [name, city, address, postcode, source, as_of] = cells.slice(i, i + BIC_ENTRY_CELLS);
        entries.push({ bic11, name, city, address, postcode, source: required(source), as_of });
      }
      return entries;
    },
  },
  bic11sByBic8: { cells: (bics: string[]): Cells => bics, decode: (cells: Cells) => cells.map(required) },
  bankBics: { cells: (bics: string[]): Cells => bics, decode: (cells: Cells) => cells.map(required) },
  // Few records of many fields: each kept as its JSON.
  clearing: {
    cells: (record: ClearingRecord): Cells => [JSON.stringify(record)],
    decode: ([json]: Cells): ClearingRecord => JSON.parse(required(json)),
  },
  leis: {
    cells: (l: LeiEntry): Cells => [l.lei, l.source, l.as_of],
    decode: ([lei, source, as_of]: Cells): LeiEntry => ({ lei: required(lei), source: required(source), as_of }),
  },
  deCheckMethods: { cells: (m: string): Cells => [m], decode: ([m]: Cells) => required(m) },
  deIbanRules: { cells: (r: string): Cells => [r], decode: ([r]: Cells) => required(r) },
};

type TableName = keyof typeof CODECS;
const isTable = (name: string): name is TableName => Object.hasOwn(CODECS, name);
const TABLES = Object.keys(CODECS).filter(isTable);

/** bundled.json: what a load holds besides the indexes. */
interface BundledFile {
  clearingSource: string | null;
  sanctions: { name: string; as_of: string; as_of_note?: string; records: SanctionRecord[] }[];
}

/** Writes the indexes and the rest of a bundled load (loadBundled) into `dir`. */
export function writeCompactData(dir: string, ix: Indexes, bundled: BundledData): void {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, value: unknown) => writeFileSync(join(dir, `${name}.json`), JSON.stringify(value));
  write('bankCodes', tableFile(ix.bankCodes, CODECS.bankCodes.cells));
  write('bics', tableFile(ix.bics, CODECS.bics.cells));
  write('bic11sByBic8', tableFile(ix.bic11sByBic8, CODECS.bic11sByBic8.cells));
  write('bankBics', tableFile(ix.bankBics, CODECS.bankBics.cells));
  write('clearing', tableFile(ix.clearing, CODECS.clearing.cells));
  write('leis', tableFile(ix.leis, CODECS.leis.cells));
  write('deCheckMethods', tableFile(ix.deCheckMethods, CODECS.deCheckMethods.cells));
  write('deIbanRules', tableFile(ix.deIbanRules, CODECS.deIbanRules.cells));
  const file: BundledFile = {
    clearingSource: bundled.clearingSource,
    sanctions: bundled.sanctions.map(({ name, as_of, as_of_note, byBic }) => ({
      name,
      as_of,
      ...(as_of_note && { as_of_note }),
      records: [...byBic.values()].flat(),
    })),
  };
  write('bundled', file);
}

/** The compact data of one edition in `dir`, or null when the build wrote none there. */
export function readCompactData(dir: string): { ix: IndexReader; bundled: BundledData } | null {
  const path = (name: string) => join(dir, `${name}.json`);
  if (!existsSync(path('bundled')) || !TABLES.every((name) => existsSync(path(name)))) return null;
  const file: BundledFile = JSON.parse(readFileSync(path('bundled'), 'utf8'));
  const read = (name: TableName) => (): TableFile => JSON.parse(readFileSync(path(name), 'utf8'));
  const ix: IndexReader = {
    bankCodes: new CompactTable(read('bankCodes'), CODECS.bankCodes.decode),
    bics: new CompactTable(read('bics'), CODECS.bics.decode),
    bic11sByBic8: new CompactTable(read('bic11sByBic8'), CODECS.bic11sByBic8.decode),
    bankBics: new CompactTable(read('bankBics'), CODECS.bankBics.decode),
    clearing: new CompactTable(read('clearing'), CODECS.clearing.decode),
    leis: new CompactTable(read('leis'), CODECS.leis.decode),
    deCheckMethods: new CompactTable(read('deCheckMethods'), CODECS.deCheckMethods.decode),
    deIbanRules: new CompactTable(read('deIbanRules'), CODECS.deIbanRules.decode),
  };
  const bundled: BundledData = {
    clearingSource: file.clearingSource,
    sanctions: file.sanctions.map((l) => sanctionsList(l.name, l.as_of, l.records, l.as_of_note)),
  };
  return { ix, bundled };
}
