import type { DatasetStore } from '../../store/types.ts';
import type { ParsedDataset } from '../types.ts';
import { bundesbankBlz } from './bundesbank-blz.ts';
import { epcRegister } from './epc-register.ts';
import { euFsf } from './eu-fsf.ts';
import { gleifBicLei } from './gleif-bic-lei.ts';
import { ofacSdn } from './ofac-sdn.ts';
import { sixBankmaster } from './six-bankmaster.ts';
import { type ImportInput, ImportError, type Importer, storedSource } from './types.ts';

export { epcDatasetKind } from './epc-register.ts';
export type { BlzRecord } from './bundesbank-blz.ts';
export { AS_OF_BASIS_WORDS, downloadDateNote, ImportError, type ImportInput, type Importer } from './types.ts';

export const IMPORTERS: readonly Importer[] = [sixBankmaster, bundesbankBlz, epcRegister, ofacSdn, euFsf, gleifBicLei];

export function importerFor(kind: string): Importer {
  const importer = IMPORTERS.find((i) => i.kind === kind);
  if (!importer)
    throw new ImportError(`unknown data kind "${kind}" (one of ${IMPORTERS.map((i) => i.kind).join(', ')})`);
  return importer;
}

/**
 * Parses one publisher file and stores it as a whole dataset, replacing the previous one. The
 * returned source is the stored one (with its caveat when only the download dates it).
 */
export async function importFile(
  store: DatasetStore,
  kind: string,
  input: ImportInput,
  now: number,
): Promise<ParsedDataset<unknown>> {
  const parsed = importerFor(kind).parse(input);
  const source = storedSource(parsed);
  await store.putDataset(
    { kind: parsed.kind, source, asOf: parsed.asOf, importedAt: now, count: parsed.records.length },
    parsed.records,
  );
  return { ...parsed, source };
}
