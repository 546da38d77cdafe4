import { parse } from 'csv-parse/sync';
import { ImportError } from './types.ts';

/** Decodes a publisher file: UTF-8 when it is valid UTF-8, else Latin-1 (Bundesbank, OFAC). */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

/** csv-parse's options for publishers' files (see readRows). */
const CSV_OPTIONS = {
  bom: true,
  record_delimiter: ['\r\n', '\n', '\r'],
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  skip_records_with_empty_values: true,
};

/**
 * The widest header a publisher's CSV may have: every file mod97 reads has fewer than 30
 * columns (the EU's has about 120 and sets its own bound). A file with thousands of columns
 * and thousands of rows is small on disk and huge in memory once each row is split.
 */
export const MAX_COLUMNS = 64;

/**
 * Delimited text read with csv-parse, the one CSV parser of the project (quoted fields with
 * doubled quotes, separators or line breaks inside quotes, rows of any width, a stray quote
 * inside an unquoted field kept as it is: publishers' files have them). Blank lines, and lines
 * whose fields are all empty, are dropped. Each row is handed to `keep` as it is split, and only
 * what `keep` returns is held: a file is never held as rows of all its fields at once.
 */
function eachRow<T>(text: string, separator: string, keep: (fields: string[]) => T | null): T[] {
  // each record is handed to `keep` and dropped from csv-parse's own result: only what `keep` returns is held
  const kept: T[] = [];
  parse(text, {
    ...CSV_OPTIONS,
    delimiter: separator,
    on_record: (fields: string[]) => {
      const row = keep(fields);
      if (row !== null) kept.push(row);
      return null;
    },
  });
  return kept;
}

/** Refuses a header wider than `maxColumns`, before any row is read. */
export function checkWidth(header: string[], what: string, maxColumns: number): void {
  if (header.length > maxColumns)
    throw new ImportError(
      `${what}: the header has ${header.length} columns, more than the ${maxColumns} a file of this kind may have; nothing changed`,
    );
}

/**
 * Rows of a file with a header row, as objects holding only the `wanted` columns the header has
 * (trimmed), and the header itself. A header wider than `maxColumns` is refused.
 */
export function readColumns(
  text: string,
  separator: string,
  wanted: readonly string[],
  what: string,
  maxColumns = MAX_COLUMNS,
): { header: string[]; rows: Record<string, string>[] } {
  let header: string[] | null = null;
  let picks: [string, number][] = [];
  const rows = eachRow(text, separator, (fields): Record<string, string> | null => {
    if (header === null) {
      checkWidth(fields, what, maxColumns);
      header = fields.map((name) => name.trim());
      const names = header;
      picks = wanted.map((name): [string, number] => [name, names.indexOf(name)]).filter(([, i]) => i >= 0);
      return null;
    }
    const row: Record<string, string> = {};
    for (const [name, i] of picks) row[name] = (fields[i] ?? '').trim();
    return row;
  });
  return { header: header ?? [], rows };
}

/**
 * Rows of fields, each cut to `width` fields (a file read by position): a row wider than the
 * format is not held whole. With `header`, the first row is the header, at most `maxColumns`
 * wide, and sets the width.
 */
export function readRows(
  text: string,
  separator: string,
  what: string,
  shape: { header: true; maxColumns?: number } | { header: false; width: number },
): string[][] {
  let width = shape.header ? -1 : shape.width;
  const rows = eachRow(text, separator, (fields) => {
    if (width < 0) {
      checkWidth(fields, what, shape.header ? (shape.maxColumns ?? MAX_COLUMNS) : MAX_COLUMNS);
      width = fields.length;
    }
    return fields.length > width ? fields.slice(0, width) : fields;
  });
  // A last line without its line break and narrower than the row before it is a row cut off:
  // the file was truncated (a download that stopped), and its half row would be stored as if
  // whole. (The header may be wider than the rows: SIX's ends with its creation stamp.)
  const [before, last] = rows.slice(-2);
  if (shape.header && rows.length > 2 && before && last && last.length < before.length && !/[\r\n]\s*$/.test(text))
    throw new ImportError(
      `${what} ends in the middle of a row (its last line has ${last.length} fields, the line before it ${before.length}, and no line break): the file was cut off; nothing changed`,
    );
  return rows;
}

/** A YYYY-MM-DD date in a file name such as `blz_2025_12_08.txt` or `BIC-LEI-20250901.csv`. */
export function dateInName(name: string): string | null {
  const m = /(20\d{2})[-_]?(0[1-9]|1[0-2])[-_]?(0[1-9]|[12]\d|3[01])/.exec(name.split('/').pop() ?? '');
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
