import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { applyBankDirectory, applyClearing, type SanctionsList, sanctionsList } from './apply.ts';
import type { Bundle } from './bundle/build.ts';
import { GENERATED_DIR } from './bundle/sources.ts';
import { readJsonFile } from './json-file.ts';
import type { Indexes } from './indexes.ts';
import type { Provenance } from './types.ts';

const require = createRequire(import.meta.url);
const generated = <K extends keyof Bundle>(name: K): Bundle[K] => readJsonFile(join(GENERATED_DIR, name));

/** The name under which the bundled OFAC list and an imported one are both answered. */
export const OFAC_LIST = 'OFAC SDN';

/**
 * The bundled sources, lowest rank first: only those whose terms allow commercial
 * redistribution (bundle/terms.ts, "may"). Dates come from the data itself where it carries
 * one, else from the publisher's history (see src/data/generated/SOURCES.md); npm publish times
 * of the local registry mirror do not match the changelogs and are not used.
 */
export const BUNDLED_SOURCES = {
  schwifty: {
    name: 'schwifty bank registry',
    as_of: '2026-07-23',
    kind: 'bundled',
    licence: 'MIT (schwifty); national data under their publishers’ terms, each allowing commercial redistribution',
    note: 'bank code to name and BIC for AT, CH, CZ, DE, HR, HU, LI, LT, SI, UA (the files whose publishers allow commercial redistribution; the others are imported: mod97 data update schwifty-registry); each answer carries the date of its country’s file, this is the registry’s commit date',
  },
  entrecode: {
    name: 'iban-to-bic datasets (national registers)',
    as_of: '2026-08-19',
    kind: 'bundled',
    licence:
      'MIT (iban-to-bic); OeNB data CC BY 4.0; CNB, ECB and Bank of Lithuania data reproduced with the source cited',
    note: 'bank code to name and BIC for AT, CZ, ES, FR, LT from OeNB, CNB, ECB, Bank of Lithuania (BE, LU and NL, whose publishers state no terms, are not bundled)',
  },
  bankdataGermany: {
    name: 'bankdata-germany@2.2602.0 (Deutsche Bundesbank BLZ)',
    as_of: '2026-06-08',
    kind: 'bundled',
    licence: 'MIT OR MPL-2.0 (package); data by Deutsche Bundesbank',
    updatedBy: 'bundesbank-blz',
    note: 'German BLZ to name and BIC, head offices only; the package delta valid from 2026-09-07 applies from that day',
  },
  sixBankmaster: {
    name: 'SIX BankMaster V3 created 2025-09-01 16:30',
    as_of: '2025-09-02',
    kind: 'bundled',
    licence: 'data by SIX Interbank Clearing, published free of charge',
    updatedBy: 'six-bankmaster',
    note: 'Swiss and Liechtenstein IIDs with SIC, euroSIC, instant-payments and QR-IID columns',
  },
  ofacSdn: {
    name: 'OFAC SDN list (sdn.csv)',
    as_of: '2024-05-03',
    kind: 'bundled',
    licence: 'public domain (US government work)',
    updatedBy: 'ofac-sdn',
    note: 'entries whose remarks name a SWIFT/BIC; a snapshot, not current: import a newer list',
  },
} satisfies Record<string, Provenance>;

/**
 * The bundled dataset an import of `kind` replaces whole (snapshot.ts, `supersededBy`): the
 * OFAC list, the SIX clearing table, the Bundesbank directory. A first import is compared with
 * it, as a later one is with the import before it, so that a truncated file never takes the
 * place of a complete bundled copy.
 */
export function bundledDatasetOf(kind: string, now = Date.now()): { name: string; count: number } | null {
  const named = ({ name, as_of }: Provenance, count: number) => ({ name: `${name}, as of ${as_of}`, count });
  if (kind === 'ofac-sdn') return named(BUNDLED_SOURCES.ofacSdn, generated('ofac-sdn.json').records.length);
  if (kind === 'six-bankmaster')
    return named(BUNDLED_SOURCES.sixBankmaster, generated('six-bankmaster.json').records.length);
  if (kind === 'bundesbank-blz') {
    const delta = germanDelta(now);
    return named(delta.provenance, germanBanks(delta).length);
  }
  return null;
}

/** The package ships the Bundesbank file plus a delta; the delta applies from its `valid` date on. */
function germanDelta(now: number) {
  const dataDir = join(dirname(require.resolve('bankdata-germany')), 'data');
  const next = readJsonFile<{
    remove: string[];
    upsert: Record<string, [string, string]>;
    valid: string;
  }>(join(dataDir, 'next.json'));
  const useNext = now >= Date.parse(next.valid);
  const provenance: Provenance = {
    ...BUNDLED_SOURCES.bankdataGermany,
    ...(useNext && { as_of: next.valid.slice(0, 10) }),
  };
  return { dataDir, next, useNext, provenance };
}

/** Which bundled files a load at `now` reads: the German delta applies from its date on. */
export const bundledEdition = (now: number): 'with-german-delta' | 'without-german-delta' =>
  germanDelta(now).useNext ? 'with-german-delta' : 'without-german-delta';

/** The German banks the package lists (`germanDelta(now)`: its delta applied from its day on): BLZ, BIC, name. */
function germanBanks({ dataDir, next, useNext }: ReturnType<typeof germanDelta>): [string, string | null, string][] {
  const current = readJsonFile<Record<string, [string, string]>>(join(dataDir, 'current.json'));
  const banks = useNext ? { ...current, ...next.upsert } : current;
  if (useNext) for (const blz of next.remove) delete banks[blz];
  return Object.entries(banks).map(([blz, [bankName, bic]]) => [blz, bic || null, bankName]);
}

function loadBankdataGermany(ix: Indexes, now: number): void {
  const delta = germanDelta(now);
  const { as_of, name } = delta.provenance;
  applyBankDirectory(ix, { DE: { as_of, rows: germanBanks(delta) } }, name);
}

/** Full directories imported by the operator; each replaces its bundled copy entirely. */
export interface Superseded {
  germanBlz: boolean;
  swissClearing: boolean;
  ofacSdn: boolean;
}

export interface BundledData {
  sanctions: SanctionsList[];
  /** The source answering Swiss clearing, unless an import replaces it. */
  clearingSource: string | null;
}

/**
 * The bundled sources `loadBundled` loads, lowest rank first, read without loading them: the
 * settings line at start names them before the data is first loaded.
 */
export function bundledSources(now: number, superseded: Superseded): Provenance[] {
  const { schwifty, entrecode, sixBankmaster, ofacSdn } = BUNDLED_SOURCES;
  return [
    schwifty,
    entrecode,
    ...(superseded.germanBlz ? [] : [germanDelta(now).provenance]),
    ...(superseded.swissClearing ? [] : [sixBankmaster]),
    ...(superseded.ofacSdn ? [] : [ofacSdn]),
  ];
}

/**
 * Loads the bundled sources into `ix`, lowest rank first. Germany and Switzerland have complete
 * registers (Bundesbank, SIX): where one is loaded, bundled or imported, it alone says which
 * bank codes exist, and schwifty's copy of them only adds BICs.
 */
export function loadBundled(ix: Indexes, now: number, superseded: Superseded): BundledData {
  const { schwifty, entrecode, sixBankmaster, ofacSdn } = BUNDLED_SOURCES;
  const registry = generated('banks-schwifty.json');
  const complete = new Set(['DE', 'CH', 'LI']);
  const { DE, CH, LI, ...others } = registry.countries;
  applyBankDirectory(ix, others, schwifty.name);
  for (const [blz, method] of Object.entries(registry.de_check_methods)) ix.deCheckMethods.set(blz, method);
  applyBankDirectory(ix, generated('banks-entrecode.json').countries, entrecode.name);
  if (!superseded.germanBlz) loadBankdataGermany(ix, now);
  let clearingSource: string | null = null;
  if (!superseded.swissClearing) {
    const six = generated('six-bankmaster.json');
    applyClearing(ix, six.records, sixBankmaster.name, sixBankmaster.as_of);
    clearingSource = sixBankmaster.name;
  }
  // schwifty's further BICs for the codes the complete registers list
  applyBankDirectory(ix, { ...(DE && { DE }), ...(CH && { CH }), ...(LI && { LI }) }, schwifty.name, complete);
  const sanctions: SanctionsList[] = [];
  if (!superseded.ofacSdn) sanctions.push(sanctionsList(OFAC_LIST, ofacSdn.as_of, generated('ofac-sdn.json').records));
  return { sanctions, clearingSource };
}
