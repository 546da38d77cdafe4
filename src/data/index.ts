import { createHash } from 'node:crypto';
import type { DatasetStore } from '../store/types.ts';
import { interimAccountLookups } from './account-interim.ts';
import type { BicAnswer, ClearingAnswer, ClearingSummary, SepaAnswer } from './answers.ts';
import { type BicFormat, checkBicFormat } from './bic-format.ts';
import { BUNDLED_SOURCES, loadBundled } from './bundled.ts';
import { type ComplianceAnswer, type ComplianceQuery, compliance } from './compliance.ts';
import { COUNTRY_LISTS } from './country-lists.ts';
import { SEPA_COUNTRIES } from './countries.ts';
import { importedKinds, overlayImported } from './imported.ts';
import { Indexes } from './indexes.ts';
import { Lookups } from './plane.ts';
import type { BankByCode, Provenance } from './types.ts';

export type { BicAnswer, ClearingAnswer, ClearingSummary, SepaAnswer, SourceRef } from './answers.ts';
export type { BicFormat, BicFormatReason } from './bic-format.ts';
export { checkBicFormat } from './bic-format.ts';
export {
  COMPLIANCE_DISCLAIMER,
  RISK_LEVELS,
  RISK_WEIGHTS,
  type ComplianceAnswer,
  type ComplianceQuery,
  type RiskFlag,
} from './compliance.ts';
export { COUNTRY_LISTS, EU_HIGH_RISK, FATF_CALL_FOR_ACTION, FATF_INCREASED_MONITORING } from './country-lists.ts';
export { SEPA_COUNTRIES, SEPA_SCHEMES } from './countries.ts';
export type { BankByCode, ClearingRecord, Provenance } from './types.ts';

export interface DataPlane {
  bankForIban(countryCode: string, bankCode: string | null, branchCode?: string | null): BankByCode | null;
  sepa(countryCode: string, bic?: string): SepaAnswer;
  clearing(iid: string): ClearingAnswer | null;
  clearingSummary(iid: string): ClearingSummary | null;
  bic(code: string): BicAnswer | null;
  checkBicFormat(code: string): BicFormat;
  compliance(query: ComplianceQuery): ComplianceAnswer;
  provenance(): Provenance[];
  /** Short stable label of the loaded data: newest as_of plus a digest of all sources. */
  dataVersion(): string;
  /** The Bundesbank check-digit method of a German bank code ("00" ... "E4"), or null when unknown. */
  germanCheckMethod(blz: string): string | null;
  /** Every BIC11 any loaded source gives for the bank (empty when no source knows it). */
  bicsForBank(countryCode: string, bankCode: string, branchCode?: string | null): string[];
  /** The Bundesbank IBAN rule of a German bank code ("000000" = standard), or null when unknown. */
  germanIbanRule?(blz: string): string | null;
}

export interface DataPlaneOptions {
  /** Decides which bundled German BLZ delta applies; defaults to now. */
  now?: number;
}

/**
 * Loads the bundled directories, then overlays the datasets imported into `store` (an import
 * outranks bundled data; a full SIX or Bundesbank import replaces the bundled copy).
 */
export async function loadDataPlane(store: DatasetStore, opts: DataPlaneOptions = {}): Promise<DataPlane> {
  const ix = new Indexes();
  const kinds = await importedKinds(store);
  const bundled = loadBundled(ix, opts.now ?? Date.now(), {
    germanBlz: kinds.has('bundesbank-blz'),
    swissClearing: kinds.has('six-bankmaster'),
  });
  const imported = await overlayImported(store, ix);
  ix.completeBankNames();

  const lists: Provenance[] = [...COUNTRY_LISTS, SEPA_COUNTRIES].map((l) => ({
    name: l.source,
    as_of: l.as_of,
    kind: 'bundled',
  }));
  const provenance = [...bundled, ...imported.provenance, ...lists];
  const clearingSource =
    imported.provenance.find((p) => p.note?.startsWith('dataset six-bankmaster'))?.name ??
    BUNDLED_SOURCES.swissBanks.name;
  const newest = provenance
    .map((p) => p.as_of ?? '')
    .sort()
    .at(-1);
  const digest = createHash('sha256')
    .update(JSON.stringify(provenance.map((p) => [p.name, p.as_of])))
    .digest('hex')
    .slice(0, 8);
  const lookups = new Lookups(ix, imported, clearingSource);
  const account = await interimAccountLookups(store, lookups);

  return {
    bankForIban: (cc, bank, branch) => lookups.bankForIban(cc, bank, branch),
    sepa: (cc, bic) => lookups.sepa(cc, bic),
    clearing: (iid) => lookups.clearing(iid),
    clearingSummary: (iid) => lookups.clearingSummary(iid),
    bic: (code) => lookups.bic(code),
    checkBicFormat,
    compliance: (query) =>
      compliance(query, {
        sanctions: imported.sanctions,
        bankForIban: lookups.bankForIban.bind(lookups),
        sepa: lookups.sepa.bind(lookups),
      }),
    provenance: () => provenance.map((p) => ({ ...p })),
    dataVersion: () => `${newest}.${digest}`,
    germanCheckMethod: account.germanCheckMethod,
    bicsForBank: account.bicsForBank,
    germanIbanRule: account.germanIbanRule,
  };
}
