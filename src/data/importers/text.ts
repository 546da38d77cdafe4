import { parse } from 'csv-parse/sync';

/** Decodes a publisher file: UTF-8 when it is valid UTF-8, else Latin-1 (Bundesbank, OFAC). */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

/**
 * Splits delimited text into rows of fields with csv-parse, the one CSV parser of the project:
 * quoted fields with doubled quotes, separators or line breaks inside quotes, rows of any width,
 * and a stray quote inside an unquoted field kept as it is (publishers' files have them).
 * Blank lines, and lines whose fields are all empty, are dropped.
 */
export function parseDelimited(text: string, separator: string): string[][] {
  return parse(text, {
    delimiter: separator,
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
  });
}

/** Turns rows with a header row into objects keyed by the header names. */
export function byHeader(rows: string[][]): Record<string, string>[] {
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((r) => Object.fromEntries(header.map((name, i) => [name.trim(), (r[i] ?? '').trim()])));
}

/** A YYYY-MM-DD date in a file name such as `blz_2025_12_08.txt` or `BIC-LEI-20250901.csv`. */
export function dateInName(name: string): string | null {
  const m = /(20\d{2})[-_]?(0[1-9]|1[0-2])[-_]?(0[1-9]|[12]\d|3[01])/.exec(name.split('/').pop() ?? '');
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
