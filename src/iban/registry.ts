/**
 * The SWIFT IBAN registry (release 101, 89 countries) as compact per-country strings:
 * `name|BBAN structure|bank|branch|account`, the structure in the registry's notation
 * without `!` (every length is fixed), and each identifier as a 0-based `start-end`
 * (end exclusive) range inside the BBAN, empty when the registry defines none.
 * Bank and branch ranges follow the registry; France and Monaco also report the
 * code guichet as branch. The account range leaves out national check digits kept in
 * a field of their own (FR, ES, IT, ...), and currency or account-type codes.
 */
const REGISTRY = {
  AD: 'Andorra|4n4n12c|0-4|4-8|8-20',
  AE: 'United Arab Emirates|3n16n|0-3||3-19',
  AL: 'Albania|8n16c|0-3|3-8|8-24',
  AT: 'Austria|5n11n|0-5||5-16',
  AZ: 'Azerbaijan|4a20c|0-4||4-24',
  BA: 'Bosnia and Herzegovina|3n3n8n2n|0-3|3-6|6-14',
  BE: 'Belgium|3n7n2n|0-3||3-10',
  BG: 'Bulgaria|4a4n2n8c|0-4|4-8|10-18',
  BH: 'Bahrain|4a14c|0-4||4-18',
  BI: 'Burundi|5n5n11n2n|0-5|5-10|10-21',
  BR: 'Brazil|8n5n10n1a1c|0-8|8-13|13-23',
  BY: 'Belarus|4c4n16c|0-4||4-24',
  CH: 'Switzerland|5n12c|0-5||5-17',
  CR: 'Costa Rica|4n14n|0-4||4-18',
  CY: 'Cyprus|3n5n16c|0-3|3-8|8-24',
  CZ: 'Czechia|4n16n|0-4||4-20',
  DE: 'Germany|8n10n|0-8||8-18',
  DJ: 'Djibouti|5n5n11n2n|0-5|5-10|10-21',
  DK: 'Denmark|4n9n1n|0-4||4-14',
  DO: 'Dominican Republic|4c20n|0-4||4-24',
  EE: 'Estonia|2n14n|0-2||2-16',
  EG: 'Egypt|4n4n17n|0-4|4-8|8-25',
  ES: 'Spain|4n4n1n1n10n|0-4|4-8|10-20',
  FI: 'Finland|3n11n|0-3||3-13',
  FK: 'Falkland Islands|2a12n|0-2||2-14',
  FO: 'Faroe Islands|4n9n1n|0-4||4-14',
  FR: 'France|5n5n11c2n|0-5|5-10|10-21',
  GB: 'United Kingdom|4a6n8n|0-4|4-10|10-18',
  GE: 'Georgia|2a16n|0-2||2-18',
  GI: 'Gibraltar|4a15c|0-4||4-19',
  GL: 'Greenland|4n9n1n|0-4||4-14',
  GR: 'Greece|3n4n16c|0-3|3-7|7-23',
  GT: 'Guatemala|4c20c|0-4||8-24',
  HN: 'Honduras|4a20n|0-4||4-24',
  HR: 'Croatia|7n10n|0-7||7-17',
  HU: 'Hungary|3n4n1n15n1n|0-3|3-7|7-23',
  IE: 'Ireland|4a6n8n|0-4|4-10|10-18',
  IL: 'Israel|3n3n13n|0-3|3-6|6-19',
  IQ: 'Iraq|4a3n12n|0-4|4-7|7-19',
  IS: 'Iceland|4n2n6n10n|0-2|2-4|4-12',
  IT: 'Italy|1a5n5n12c|1-6|6-11|11-23',
  JO: 'Jordan|4a4n18c|0-4|4-8|8-26',
  KW: 'Kuwait|4a22c|0-4||4-26',
  KZ: 'Kazakhstan|3n13c|0-3||3-16',
  LB: 'Lebanon|4n20c|0-4||4-24',
  LC: 'Saint Lucia|4a24c|0-4||4-28',
  LI: 'Liechtenstein|5n12c|0-5||5-17',
  LT: 'Lithuania|5n11n|0-5||5-16',
  LU: 'Luxembourg|3n13c|0-3||3-16',
  LV: 'Latvia|4a13c|0-4||4-17',
  LY: 'Libya|3n3n15n|0-3|3-6|6-21',
  MC: 'Monaco|5n5n11c2n|0-5|5-10|10-21',
  MD: 'Moldova|2c18c|0-2||2-20',
  ME: 'Montenegro|3n13n2n|0-3||3-16',
  MK: 'North Macedonia|3n10c2n|0-3||3-13',
  MN: 'Mongolia|4n12n|0-4||4-16',
  MR: 'Mauritania|5n5n11n2n|0-5|5-10|10-21',
  MT: 'Malta|4a5n18c|0-4|4-9|9-27',
  MU: 'Mauritius|4a2n2n12n3n3a|0-6|6-8|8-20',
  NI: 'Nicaragua|4a20n|0-4||4-24',
  NL: 'Netherlands|4a10n|0-4||4-14',
  NO: 'Norway|4n6n1n|0-4||4-10',
  OM: 'Oman|3n16c|0-3||3-19',
  PK: 'Pakistan|4a16c|0-4||4-20',
  PL: 'Poland|8n16n|0-8||8-24',
  PS: 'Palestine|4a21c|0-4||4-25',
  PT: 'Portugal|4n4n11n2n|0-4|4-8|8-19',
  QA: 'Qatar|4a21c|0-4||4-25',
  RO: 'Romania|4a16c|0-4||4-20',
  RS: 'Serbia|3n13n2n|0-3||3-16',
  RU: 'Russian Federation|9n5n15c|0-9|9-14|14-29',
  SA: 'Saudi Arabia|2n18c|0-2||2-20',
  SC: 'Seychelles|4a2n2n16n3a|0-6|6-8|8-24',
  SD: 'Sudan|2n12n|0-2||2-14',
  SE: 'Sweden|3n16n1n|0-3||3-19',
  SI: 'Slovenia|5n8n2n|0-5||5-13',
  SK: 'Slovakia|4n6n10n|0-4||4-20',
  SM: 'San Marino|1a5n5n12c|1-6|6-11|11-23',
  SO: 'Somalia|4n3n12n|0-4|4-7|7-19',
  ST: 'Sao Tome and Principe|4n4n11n2n|0-4|4-8|8-21',
  SV: 'El Salvador|4a20n|0-4||4-24',
  TL: 'Timor-Leste|3n14n2n|0-3||3-17',
  TN: 'Tunisia|2n3n13n2n|0-2|2-5|5-18',
  TR: 'Türkiye|5n1n16c|0-5||6-22',
  UA: 'Ukraine|6n19c|0-6||6-25',
  VA: 'Holy See|3n15n|0-3||3-18',
  VG: 'British Virgin Islands|4a16n|0-4||4-20',
  XK: 'Kosovo|4n10n2n|0-2|2-4|4-16',
  YE: 'Yemen|4a4n18c|0-4|4-8|8-26',
} as const satisfies Record<string, string>;

export type CountryCode = keyof typeof REGISTRY;

/**
 * Character classes of the registry notation as bit masks of what a position accepts:
 * 1 = a digit (n), 2 = an upper-case letter (a), 3 = either (c). Hot loops test the bits
 * as literals rather than through imported constants, which cost a call per use when the
 * module is loaded as CommonJS (as tsx may do).
 */
export const ACCEPTS_DIGIT = 1;
const ACCEPTS_LETTER = 2;

import { NATIONAL_CHECKS, type NationalCheck } from './national.ts';

export interface CountrySpec {
  code: string;
  name: string;
  /** Full IBAN length: country code, two check digits and the BBAN. */
  length: number;
  /** What each BBAN position accepts (ACCEPTS_DIGIT and/or ACCEPTS_LETTER bits); index 0 = IBAN index 4. */
  classes: Uint8Array;
  /** The registry structure string, e.g. `3n7n2n`. */
  structure: string;
  bank: Range | null;
  branch: Range | null;
  account: Range | null;
  /** The country's national check digit rule, if mod97 enforces one. */
  national: NationalCheck | null;
}

export interface Range {
  start: number;
  end: number;
}

function parseRange(text: string): Range | null {
  if (text === '') return null;
  const [start, end] = text.split('-').map(Number);
  return { start: start, end: end };
}

function compile(code: string, entry: string): CountrySpec {
  const [name, structure, bank, branch, account] = entry.split('|');
  const classes: number[] = [];
  for (const [, count, cls] of structure.matchAll(/(\d+)([nac])/g)) {
    const value = cls === 'n' ? ACCEPTS_DIGIT : cls === 'a' ? ACCEPTS_LETTER : ACCEPTS_DIGIT | ACCEPTS_LETTER;
    for (let i = 0; i < Number(count); i++) classes.push(value);
  }
  return {
    code,
    name,
    structure,
    length: classes.length + 4,
    classes: Uint8Array.from(classes),
    bank: parseRange(bank),
    branch: parseRange(branch),
    account: parseRange(account),
    national: NATIONAL_CHECKS[code] ?? null,
  };
}

type CountryTable = Record<CountryCode, CountrySpec>;

const isCountryCode = (code: string): code is CountryCode => code in REGISTRY;

/** Whether the table holds a spec for every country, as countryTable builds it to. */
const hasEveryCountry = (table: Partial<CountryTable>): table is CountryTable =>
  Object.keys(REGISTRY).every((code) => code in table);

function countryTable(): Readonly<CountryTable> {
  const table: Partial<CountryTable> = {};
  for (const code of Object.keys(REGISTRY).filter(isCountryCode)) table[code] = compile(code, REGISTRY[code]);
  if (!hasEveryCountry(table)) throw new Error('a registry country has no spec');
  return Object.freeze(table);
}

/** The registry, keyed by ISO 3166 country code. */
export const COUNTRIES: Readonly<CountryTable> = countryTable();

/** Lookup by the two upper-case letters' char codes without building a string: index (c0-65)*26 + (c1-65). */
const BY_LETTERS: (CountrySpec | undefined)[] = new Array(26 * 26).fill(undefined);
for (const spec of Object.values(COUNTRIES)) {
  BY_LETTERS[(spec.code.charCodeAt(0) - 65) * 26 + spec.code.charCodeAt(1) - 65] = spec;
}

/** The country spec of the two letters at the start of `iban`, or undefined. */
export function countryOf(iban: string): CountrySpec | undefined {
  return countryAt(iban.charCodeAt(0), iban.charCodeAt(1));
}

/** The country spec of two upper-case letters given as char codes, or undefined. */
export function countryAt(code0: number, code1: number): CountrySpec | undefined {
  const c0 = code0 - 65;
  const c1 = code1 - 65;
  if (c0 < 0 || c0 > 25 || c1 < 0 || c1 > 25) return undefined;
  return BY_LETTERS[c0 * 26 + c1];
}
