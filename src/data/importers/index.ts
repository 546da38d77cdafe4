import type { DatasetStore } from '../../store/types.ts';
import type { ParsedDataset } from '../types.ts';
import { bundesbankBlz } from './bundesbank-blz.ts';
import { epcRegister } from './epc-register.ts';
import { euFsf } from './eu-fsf.ts';
import { gleifBicLei } from './gleif-bic-lei.ts';
import { ofacSdn } from './ofac-sdn.ts';
import { sixBankmaster } from './six-bankmaster.ts';
import { type ImportInput, ImportError, type Importer } from './types.ts';

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

/** Parses one publisher file and stores it as a whole dataset, with what its date rests on. */
export async function importFile(
  store: DatasetStore,
  kind: string,
  input: ImportInput,
  now: number,
): Promise<ParsedDataset<unknown>> {
  const parsed = importerFor(kind).parse(input);
  await store.putDataset(
    {
      kind: parsed.kind,
      source: parsed.source,
      asOf: parsed.asOf,
      asOfBasis: parsed.asOfBasis,
      importedAt: now,
      count: parsed.records.length,
    },
    parsed.records,
  );
  return parsed;
}
