/**
 * Builds the generated reference data shipped in src/data/generated/ from the publishers' files
 * (a folder laid out as one sub-folder per source, each with the original files). Run by
 * `npm run data:bundle`; a test regenerates it and compares with the committed files.
 * Only sources whose licence allows redistribution are bundled; each gets its source, date and
 * licence beside it in SOURCES.md, and the MIT notices are shipped as they are.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from '../json-file.ts';
import { isRecord } from '../../is-record.ts';
import { ofacSdn } from '../importers/ofac-sdn.ts';
import { sixBankmaster } from '../importers/six-bankmaster.ts';
import type { ClearingRecord, ParsedDataset, SanctionRecord } from '../types.ts';
import { ENTRECODE_BUNDLED_COUNTRIES, SCHWIFTY_BUNDLED_FILES } from './terms.ts';

/** One bank code of a directory: code, BIC (11 characters) or null, name or null. */
export type BankRow = [code: string, bic: string | null, name: string | null];

interface BankDirectory {
  source: string;
  licence: string;
  /** Per country: the date of its data and its rows, the primary office of a code first. */
  countries: Record<string, { as_of: string | null; rows: BankRow[] }>;
}

export interface Bundle {
  'banks-schwifty.json': BankDirectory & { de_check_methods: Record<string, string> };
  'banks-entrecode.json': BankDirectory;
  'six-bankmaster.json': ParsedDataset<ClearingRecord> & { licence: string };
  'ofac-sdn.json': ParsedDataset<SanctionRecord> & { licence: string };
  'LICENSE-schwifty.txt': string;
  'LICENSE-iban-to-bic.txt': string;
}

/**
 * Date of each schwifty registry file: the last commit touching it in mdomke/schwifty at
 * 23462330 (2026-07-23); the registry states none inside. null where only a range is known.
 */
const SCHWIFTY_FILE_DATES: Record<string, string | null> = {
  at: '2026-03-03',
  be: '2026-03-03',
  ch: '2026-03-03',
  fi: '2026-03-03',
  no: '2026-03-03',
  md: '2026-03-03',
  de: '2026-05-21',
  pl: '2026-05-21',
  it: '2026-07-03',
  cz: '2026-01-23',
  hu: '2026-01-23',
  li: '2025-08-06',
  es: '2024-11-11',
  nl: '2024-11-11',
  hr: '2024-07-24',
  si: '2024-04-30',
  se: '2023-11-27',
  ua: '2023-09-27',
  lt: '2022-06-30',
  ro: '2022-06-17',
  sk: '2022-04-11',
  ba: '2022-12-12',
  ee: '2022-12-12',
  ge: '2022-12-12',
  kz: '2022-12-12',
  rs: '2022-12-12',
  lv: '2020-05-08',
  'manual:fr': '2026-05-06',
  'manual:gb': '2026-03-03',
  'manual:es': '2026-03-03',
  'manual:ro': '2026-03-03',
  'manual:ie': '2026-05-21',
  'manual:lu': '2025-09-12',
};
/** entrecode/iban-to-bic at dfe5b9de: every dataset regenerated on 2026-08-19, LT on 2026-08-20. */
const ENTRECODE_DATES: Record<string, string> = { lt: '2026-08-20' };
const ENTRECODE_DEFAULT_DATE = '2026-08-19';
/** The sdn.csv snapshot states no date; it is the scrape of 2024-05-03 (the last good one). */
const OFAC_SNAPSHOT_DATE = '2024-05-03';

const bic11 = (bic: string | null | undefined): string | null => {
  const b = bic?.trim().toUpperCase();
  if (!b || !/^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(b)) return null;
  return b.length === 8 ? `${b}XXX` : b;
};

interface SchwiftyEntry {
  bank_code?: string;
  bank_codes?: string[];
  bic?: string;
  name?: string;
  primary?: boolean;
  country_code: string;
  checksum_algo?: string;
}

/** Primary offices first, then by code; a code's rows keep the registry's order otherwise. */
function sortRows(rows: (BankRow & { primary?: boolean })[], primary: Map<BankRow, boolean>): BankRow[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort(
      (a, b) =>
        (a.row[0] < b.row[0] ? -1 : a.row[0] > b.row[0] ? 1 : 0) ||
        Number(primary.get(b.row) ?? false) - Number(primary.get(a.row) ?? false) ||
        a.i - b.i,
    )
    .map(({ row }) => row);
}

/**
 * Keeps the first row of each code and BIC: the first row of a code names the bank, and further
 * rows with the same BIC (branch offices, 5,000 of them for UA) add nothing to a lookup by code.
 */
function firstPerBic(rows: BankRow[]): BankRow[] {
  const seen = new Set<string>();
  return rows.filter(([code, bic]) => {
    const key = `${code} ${bic}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** schwifty's file names: `generated_xx[.v2].json` from national sources, `manual_xx.json` curated. */
export const SCHWIFTY_FILE = /^(generated|manual)_([a-z]{2})(\.v2)?\.json$/;

/** Rows of schwifty registry files, collected by country, with each row's primary flag. */
class SchwiftyRows {
  readonly primary = new Map<BankRow, boolean>();
  readonly byCountry = new Map<string, BankRow[]>();
  readonly checkMethods: Record<string, string> = {};

  /** One file's JSON: a list of entries (v1), or `{entries}` grouped by `bank_codes` (v2). */
  add(json: unknown, country: string): void {
    const entries = Array.isArray(json) ? json : isRecord(json) ? json.entries : undefined;
    if (!Array.isArray(entries)) throw new Error('not a schwifty bank registry file (a list, or {"entries": [...]})');
    for (const e of entries as SchwiftyEntry[]) {
      if (typeof e !== 'object' || e === null) continue;
      for (const code of e.bank_codes ?? [e.bank_code ?? '']) {
        if (!code || typeof code !== 'string') continue; // a few curated rows carry no bank code: nothing to look up by
        const row: BankRow = [code, bic11(e.bic), e.name?.trim() || null];
        this.primary.set(row, e.primary ?? false);
        const rows = this.byCountry.get(country) ?? [];
        rows.push(row);
        this.byCountry.set(country, rows);
        if (country === 'DE' && e.checksum_algo && (e.primary ?? true)) this.checkMethods[code] ??= e.checksum_algo;
      }
    }
  }

  /** A country's rows as bundled or imported: by code, primary office first, one row per code and BIC. */
  rows(country: string): BankRow[] {
    return firstPerBic(sortRows(this.byCountry.get(country) ?? [], this.primary));
  }
}

/** One schwifty registry file (its country from the name), as bank rows: what an import of it stores. */
export function schwiftyFileRows(json: unknown, country: string): BankRow[] {
  const rows = new SchwiftyRows();
  rows.add(json, country);
  return rows.rows(country);
}

/**
 * schwifty's bank registry (MIT): `generated_*` from national sources, `manual_*` curated. Only
 * the files whose publisher's terms allow commercial redistribution are read (terms.ts); the
 * others are the operator's to import.
 */
function buildSchwifty(dir: string): Bundle['banks-schwifty.json'] {
  const countries: BankDirectory['countries'] = {};
  const collected = new SchwiftyRows();
  const dates = new Map<string, string | null>();
  const files = readdirSync(dir)
    .filter((f) => SCHWIFTY_FILE.test(f) && SCHWIFTY_BUNDLED_FILES.has(f))
    .sort();
  for (const file of files) {
    const named = SCHWIFTY_FILE.exec(file);
    if (!named) continue; // the filter above kept only names it matches
    const [, origin, cc] = named;
    const country = cc.toUpperCase();
    // a generated file dates the country; a manual one only where no generated one exists
    const date = SCHWIFTY_FILE_DATES[origin === 'generated' ? cc : `manual:${cc}`] ?? null;
    if (origin === 'generated' || !dates.has(country)) dates.set(country, date);
    collected.add(readJsonFile(join(dir, file)), country);
  }
  for (const country of [...collected.byCountry.keys()].sort())
    countries[country] = { as_of: dates.get(country) ?? null, rows: collected.rows(country) };
  const checkMethods = collected.checkMethods;
  return {
    source: 'schwifty bank registry (mdomke/schwifty)',
    licence:
      'MIT (schwifty); only files whose publishers allow commercial redistribution, under their terms (docs/data-sources.md, "What may ship")',
    countries,
    de_check_methods: Object.fromEntries(Object.entries(checkMethods).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

type EntrecodeName = string | Record<string, string> | undefined;
const nameOf = (n: EntrecodeName): string | null =>
  typeof n === 'string' ? n.trim() || null : n ? (n.en ?? n.fr ?? n.nl ?? n.de ?? null) : null;

/**
 * entrecode/iban-to-bic's extended datasets (MIT), regenerated from the national registers.
 * Germany and Switzerland are left out: the Bundesbank file and SIX's own are bundled whole.
 */
function buildEntrecode(dir: string): BankDirectory {
  const countries: BankDirectory['countries'] = {};
  const ext = join(dir, 'datasets-extended');
  for (const file of readdirSync(ext).sort()) {
    const cc = file.replace(/\.json$/, '');
    // whose publisher's terms allow commercial redistribution (terms.ts); the rest are not written
    if (cc === 'de' || cc === 'ch' || !ENTRECODE_BUNDLED_COUNTRIES.has(cc.toUpperCase())) continue;
    const data = readJsonFile<Record<string, { bic?: string; name?: EntrecodeName }>>(join(ext, file));
    const rows: BankRow[] = Object.entries(data)
      .map(([code, e]): BankRow => [code, bic11(e.bic), nameOf(e.name)])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    countries[cc.toUpperCase()] = { as_of: ENTRECODE_DATES[cc] ?? ENTRECODE_DEFAULT_DATE, rows };
  }
  return {
    source: 'iban-to-bic datasets (entrecode/iban-to-bic), from OeNB, CNB, ECB, Bank of Lithuania',
    licence:
      'MIT (iban-to-bic); OeNB data CC BY 4.0 (Source: Oesterreichische Nationalbank); Zdroj: ČNB; Source: European Central Bank; Source: Lietuvos bankas',
    countries,
  };
}

/** Reads every bundled source from `dir` with the project's own importers. */
export function buildBundle(dir: string): Bundle {
  const six = 'six-bankmaster-v3/bankmaster_V3.csv';
  const sdn = 'ofac-sdn/sdn.csv';
  const sixData = sixBankmaster.parse({ bytes: readFileSync(join(dir, six)), name: six });
  const sdnData = ofacSdn.parse({ bytes: readFileSync(join(dir, sdn)), name: sdn, asOf: OFAC_SNAPSHOT_DATE });
  return {
    'banks-schwifty.json': buildSchwifty(join(dir, 'schwifty-bank-registry')),
    'banks-entrecode.json': buildEntrecode(join(dir, 'iban-to-bic-entrecode')),
    'six-bankmaster.json': {
      ...sixData,
      licence: 'data © SIX Interbank Clearing, published free of charge',
    },
    'ofac-sdn.json': {
      ...sdnData,
      licence: 'public domain (work of the US government)',
    },
    'LICENSE-schwifty.txt': readFileSync(join(dir, 'schwifty-bank-registry', 'LICENSE'), 'utf8'),
    'LICENSE-iban-to-bic.txt': readFileSync(join(dir, 'iban-to-bic-entrecode', 'LICENSE'), 'utf8'),
  };
}

export const BUNDLE_INPUTS = [
  'schwifty-bank-registry',
  'iban-to-bic-entrecode',
  'six-bankmaster-v3/bankmaster_V3.csv',
  'ofac-sdn/sdn.csv',
];
export const hasBundleInputs = (dir: string): boolean => BUNDLE_INPUTS.every((p) => existsSync(join(dir, p)));

/**
 * The files as written: JSON with one row per line, so that a refresh shows as a readable
 * diff without the size of fully indented JSON.
 */
export function serialise(bundle: Bundle): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(bundle)) {
    out[name] = typeof value === 'string' ? value : `${rowsPerLine(value)}\n`;
  }
  return out;
}

function rowsPerLine(value: unknown): string {
  if (Array.isArray(value))
    return value.some((v) => typeof v === 'object' && v !== null)
      ? `[\n${value.map((v) => JSON.stringify(v)).join(',\n')}\n]`
      : JSON.stringify(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value);
  return `{\n${entries.map(([k, v]) => `${JSON.stringify(k)}: ${rowsPerLine(v)}`).join(',\n')}\n}`;
}
