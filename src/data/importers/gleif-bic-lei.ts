import type { BicLei, ParsedDataset } from '../types.ts';
import { checkWidth, dateInName, decodeText, MAX_COLUMNS } from './text.ts';
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
    const records = readPairs(decodeText(file?.bytes ?? input.bytes), input.name);
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

const LEI = /^[A-Z0-9]{20}$/;
const BIC = /^[A-Z0-9]{8}([A-Z0-9]{3})?$/;
const unquote = (field: string): string => field.trim().replace(/^"(.*)"$/, '$1');

/**
 * The LEI and BIC of each line, read line by line: no row arrays or objects for the whole file
 * (a file of a million rows stays a few hundred MiB). Neither code can hold a comma or a quote,
 * so a field is what lies between commas, quotes removed.
 */
function readPairs(text: string, name: string): BicLei[] {
  let end = text.indexOf('\n');
  const header = (end < 0 ? text : text.slice(0, end)).split(',').map(unquote);
  checkWidth(header, name, MAX_COLUMNS);
  const lei = header.indexOf('LEI');
  const bic = header.indexOf('BIC');
  if (lei < 0 || bic < 0 || end < 0 || end === text.length - 1)
    throw new ImportError(`${name} is not a GLEIF BIC-LEI file (needs LEI and BIC columns)`);
  const records: BicLei[] = [];
  while (end < text.length) {
    const start = end + 1;
    end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const fields = text.slice(start, end).split(',');
    const l = unquote(fields[lei] ?? '');
    const b = unquote(fields[bic] ?? '');
    if (LEI.test(l) && BIC.test(b)) records.push({ bic: b, lei: l });
  }
  return records;
}
