import type { ParsedDataset } from '../types.ts';
import { dateInName, decodeText, readColumns } from './text.ts';
import { ImportError, type Importer, resolveAsOf } from './types.ts';

export interface BlzRecord {
  blz: string;
  bic: string | null;
  name: string;
  city: string;
  postcode: string;
  /** Bundesbank check-digit method ('00'..'E4'); absent from datasets imported before it was read. */
  check_method?: string;
  /** Bundesbank IBAN rule ('000000' is the standard construction); absent where the file has none. */
  iban_rule?: string;
}

/** The method and IBAN rule columns, kept only when well formed. */
function extras(
  method: string | undefined,
  ibanRule: string | undefined,
): Pick<BlzRecord, 'check_method' | 'iban_rule'> {
  return {
    ...(method && /^[0-9A-E][0-9]$/.test(method) && { check_method: method }),
    ...(ibanRule && /^\d{6}$/.test(ibanRule) && { iban_rule: ibanRule }),
  };
}

/**
 * The Bundesbank's Bankleitzahlendatei, in either published form: the fixed-width text file
 * (Latin-1, one record per line) or the ';'-separated CSV with a German header. Only records
 * with Merkmal 1 are kept: they describe the bank that owns the BLZ; Merkmal 2 rows are its
 * further offices under the same code.
 */
export const bundesbankBlz: Importer = {
  kind: 'bundesbank-blz',
  title: 'Deutsche Bundesbank Bankleitzahlendatei (German BLZ)',
  // the Bundesbank's file is a few MiB: a file many times larger is not the publisher's
  maxBytes: 32 * 1024 * 1024,
  defaultUrls: [
    'https://www.bundesbank.de/resource/blob/602632/931479c71c7da90686c23b941148d83b/mL/blz-aktuell-txt-data.txt',
  ],
  parse(input): ParsedDataset<BlzRecord> {
    const text = decodeText(input.bytes);
    const records =
      text.startsWith('"Bankleitzahl"') || text.startsWith('Bankleitzahl')
        ? fromCsv(text, input.name)
        : fromFixedWidth(text);
    if (records.length === 0)
      throw new ImportError(`${input.name} is not a Bundesbank BLZ file (no records with Merkmal 1)`);
    const dated = resolveAsOf(
      input,
      null,
      dateInName(input.name),
      'the BLZ file carries no date (the Bundesbank states its validity period on the download page)',
    );
    return { kind: 'bundesbank-blz', source: 'Deutsche Bundesbank Bankleitzahlendatei', ...dated, records };
  },
};

function fromFixedWidth(text: string): BlzRecord[] {
  const records: BlzRecord[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.length < 168 || !/^\d{8}[12]/.test(line)) continue;
    if (line[8] !== '1') continue;
    const bic = line.slice(139, 150).trim();
    records.push({
      ...extras(line.slice(150, 152).trim(), line.slice(168, 174).trim()),
      blz: line.slice(0, 8),
      name: line.slice(9, 67).trim(),
      postcode: line.slice(67, 72).trim(),
      city: line.slice(72, 107).trim(),
      bic: bic || null,
    });
  }
  return records;
}

/** The CSV's columns read; its others are never held. */
const BLZ_COLUMNS = [
  'Bankleitzahl',
  'Merkmal',
  'Bezeichnung',
  'PLZ',
  'Ort',
  'BIC',
  'Prüfzifferberechnungsmethode',
  'IBAN-Regel',
] as const;

function fromCsv(text: string, name: string): BlzRecord[] {
  return readColumns(text, ';', BLZ_COLUMNS, name)
    .rows.filter((r) => r['Merkmal'] === '1' && /^\d{8}$/.test(r['Bankleitzahl'] ?? ''))
    .map((r) => ({
      blz: r['Bankleitzahl'],
      name: r['Bezeichnung'] ?? '',
      postcode: r['PLZ'] ?? '',
      city: r['Ort'] ?? '',
      bic: r['BIC'] || null,
      ...extras(r['Prüfzifferberechnungsmethode'], r['IBAN-Regel']),
    }));
}
