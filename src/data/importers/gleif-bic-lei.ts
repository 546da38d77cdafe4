import type { BicLei, ParsedDataset } from '../types.ts';
import { byHeader, dateInName, decodeText, parseDelimited } from './text.ts';
import { ImportError, type Importer, MAX_FILE_BYTES, resolveAsOf } from './types.ts';
import { zipEntry } from './zip.ts';

/** GLEIF's BIC-to-LEI relationship file: CSV with columns LEI and BIC (GLEIF serves it zipped). */
export const gleifBicLei: Importer = {
  kind: 'gleif-bic-lei',
  title: 'GLEIF BIC-to-LEI relationship file',
  defaultUrls: ['https://mapping.gleif.org/api/v2/bic-lei/latest/download'],
  // GLEIF's file holds tens of thousands of rows (a few MiB): ten times that is still far below this
  maxBytes: 32 * 1024 * 1024,
  parse(input): ParsedDataset<BicLei> {
    const file = zipEntry(input.bytes, {
      wanted: (name) => /\.csv$/i.test(name),
      what: 'CSV file',
      maxBytes: input.maxBytes ?? MAX_FILE_BYTES,
      fileName: input.name,
    });
    const rows = byHeader(parseDelimited(decodeText(file?.bytes ?? input.bytes), ','));
    if (rows.length === 0 || !('LEI' in rows[0]!) || !('BIC' in rows[0]!)) {
      throw new ImportError(`${input.name} is not a GLEIF BIC-LEI file (needs LEI and BIC columns)`);
    }
    const records = rows
      .filter((r) => /^[A-Z0-9]{20}$/.test(r['LEI']!) && /^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(r['BIC']!))
      .map((r) => ({ bic: r['BIC']!, lei: r['LEI']! }));
    const fromName = dateInName(file?.name ?? '') ?? dateInName(input.name);
    const dated = resolveAsOf(
      input,
      null,
      fromName,
      'the BIC-LEI CSV carries no date (GLEIF dates it in the file name)',
    );
    return { kind: 'gleif-bic-lei', source: 'GLEIF BIC-to-LEI relationship file', ...dated, records };
  },
};
