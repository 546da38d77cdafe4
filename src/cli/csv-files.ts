/** The CSV file questions of `mod97 batch`: which delimiter, is the input sound, and how far an earlier run got. */
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback, pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { Refusal } from './io.ts';

interface Dialect {
  delimiter: ',' | ';';
  /** The line ending of the header row, used for every row written. */
  eol: '\n' | '\r\n' | '\r';
}

/**
 * Reads the header line (outside quotes) of the file's first 64 KiB: `;` when it has more of them
 * than `,`; a header with more tabs than either is refused as tab-separated.
 */
export function sniffDialect(file: string): Dialect {
  const fd = openSync(file, 'r');
  const buffer = Buffer.alloc(65536);
  const length = readSync(fd, buffer, 0, buffer.length, 0);
  closeSync(fd);
  const text = buffer
    .subarray(0, length)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  let quoted = false;
  let commas = 0;
  let semicolons = 0;
  let tabs = 0;
  let eol: Dialect['eol'] = '\n';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === ',') commas++;
    else if (c === ';') semicolons++;
    else if (c === '\t') tabs++;
    else if (c === '\n') {
      if (text[i - 1] === '\r') eol = '\r\n';
      break;
    } else if (c === '\r' && text[i + 1] !== '\n') {
      eol = '\r';
      break;
    }
  }
  // Read as CSV, a tab-separated header is one long column name, and the column would be "missing".
  if (tabs > commas && tabs > semicolons)
    throw new Refusal(
      `${file} is tab-separated (its header has ${tabs} tabs and ${commas + semicolons ? 'fewer' : 'no'} commas or semicolons); mod97 batch reads CSV separated by , or ;. Save it as CSV and run again.`,
    );
  return { delimiter: semicolons > commas ? ';' : ',', eol };
}

/**
 * Passes bytes through unchanged and fails at the first one that is not UTF-8, naming its line:
 * a Latin-1 or Windows-1252 file would otherwise be read as replacement characters and its
 * names and IBANs written back mangled.
 */
class Utf8Check extends Transform {
  private line = 1;
  /** Continuation bytes still due, and the range the next one must fall in (RFC 3629, table 3-7). */
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;

  constructor(private readonly file: string) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const bad = this.firstBadByte(chunk);
    done(bad === undefined ? null : this.refusal(bad), bad === undefined ? chunk : undefined);
  }

  /** The first byte of the chunk that breaks UTF-8, or undefined when it has none (a character may go on in the next chunk). */
  private firstBadByte(chunk: Buffer): number | undefined {
    if (this.need === 0 && isUtf8(chunk)) {
      for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) this.line++;
      return undefined;
    }
    for (const b of chunk) {
      if (this.need) {
        if (b < this.lo || b > this.hi) return b;
        this.need--;
        this.lo = 0x80;
        this.hi = 0xbf;
      } else if (b < 0x80) {
        if (b === 0x0a) this.line++;
      } else if (b >= 0xc2 && b <= 0xdf) this.need = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        this.need = 2;
        if (b === 0xe0) this.lo = 0xa0;
        if (b === 0xed) this.hi = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        this.need = 3;
        if (b === 0xf0) this.lo = 0x90;
        if (b === 0xf4) this.hi = 0x8f;
      } else return b;
    }
    return undefined;
  }

  override _flush(done: TransformCallback): void {
    done(this.need ? this.refusal(null) : null);
  }

  private refusal(byte: number | null): Refusal {
    const what = byte === null ? 'ends in the middle of a character' : `has byte 0x${byte.toString(16).toUpperCase()}`;
    return new Refusal(
      `${this.file} is not UTF-8: line ${this.line} ${what} (a Latin-1 or Windows export?); save the file as UTF-8 and run again`,
    );
  }
}

export interface InputRow {
  cells: string[];
  /** The line of the file the row ends on (1 is the header's). */
  line: number;
  /** Bytes of the file read up to the end of this row. */
  bytes: number;
}

/** A record of csv-parse with `info: true`; its stream yields `any`, so the shape is named here. */
interface ParsedRow {
  record: string[];
  info: { bytes: number; lines: number };
}

/**
 * The rows of an input file, the header first, each as wide as the header (a shorter row padded
 * with empty cells). Refuses, naming the line, a file that is not UTF-8, not CSV, or has a row
 * wider than its header (its cells would land under the wrong columns).
 */
/**
 * Rows end at CR LF, LF or a lone CR, whichever each row uses: a file edited on two systems
 * mixes them, and a parser that took the first row's ending would leave a CR in a cell.
 */
const ANY_LINE_END = ['\r\n', '\n', '\r'];

export async function* readInput(file: string, delimiter: string): AsyncGenerator<InputRow> {
  const parser = parse({ delimiter, bom: true, relax_column_count: true, info: true, record_delimiter: ANY_LINE_END });
  pipeline(createReadStream(file), new Utf8Check(file), parser, () => {});
  let width = -1;
  try {
    const rows: AsyncIterable<ParsedRow> = parser;
    for await (const { record, info } of rows) {
      if (width < 0) width = record.length;
      else if (record.length > width)
        throw new Refusal(
          `${file} line ${info.lines} has ${record.length} fields, more than the ${width} of the header; fix the row (a stray ${delimiter} or quote?) and run again`,
        );
      const cells = record.length < width ? [...record, ...Array<string>(width - record.length).fill('')] : record;
      yield { cells, line: info.lines, bytes: info.bytes };
    }
  } catch (e) {
    if (e instanceof CsvError) throw new Refusal(`${file} is not valid CSV: ${e.message}`);
    throw e;
  } finally {
    parser.destroy();
  }
}

export interface Written {
  /** The header row of the output, or null when the file is missing or empty. */
  header: string[] | null;
  /** Data rows (after the header) that are complete. */
  rows: number;
  /** The last complete data row, or null when there is none. */
  last: string[] | null;
  /** The rows by their iban_valid cell: what the summary of a resumed run adds to its own. */
  counts: { valid: number; invalid: number; empty: number };
}

/**
 * How far an earlier run got: its header, its whole data rows and the last of them. A row cut
 * short (a run killed in the middle of a write) is cut off the file when `trim`, so that
 * appending continues a valid CSV. A row of another width than the header (a blank line, a row
 * edited by hand) is refused: rows after it would no longer line up with the input's.
 */
export async function scanWritten(
  file: string,
  delimiter: string,
  trim: boolean,
  /** Called with each whole row written (after the header), in order. */
  onRow: (record: string[], header: string[]) => void = () => {},
): Promise<Written> {
  const counts = { valid: 0, invalid: 0, empty: 0 };
  if (!existsSync(file) || statSync(file).size === 0) return { header: null, rows: 0, last: null, counts };
  const size = statSync(file).size;
  let header: string[] | null = null;
  let validAt = -1;
  let records = 0;
  let end = 0;
  let previousEnd = 0;
  let last: { record: string[]; line: number } | null = null;
  let beforeLast: { record: string[]; line: number } | null = null;
  let lastChecked = false;
  const check = (row: { record: string[]; line: number }, head: string[]) => {
    if (row.record.length !== head.length)
      throw new Refusal(
        `${file} line ${row.line} ${row.record.length === 1 && row.record[0] === '' ? 'is blank' : `has ${row.record.length} fields, the header ${head.length}`}: it was changed after mod97 wrote it, so --resume cannot tell where to go on; remove the line, or start again with --force`,
      );
    const valid = row.record[validAt];
    counts[valid === 'true' ? 'valid' : valid === 'false' ? 'invalid' : 'empty']++;
    onRow(row.record, head);
  };
  try {
    const parser = createReadStream(file).pipe(
      parse({ delimiter, relax_column_count: true, info: true, record_delimiter: ANY_LINE_END }),
    );
    const rows: AsyncIterable<ParsedRow> = parser;
    for await (const { record, info } of rows) {
      if (!header) {
        header = record;
        validAt = header.indexOf('iban_valid');
      } else {
        // the last record is checked once it is known to be whole
        if (last) check(last, header);
        beforeLast = last;
        last = { record, line: info.lines };
      }
      records++;
      previousEnd = end;
      end = info.bytes;
    }
  } catch (e) {
    if (e instanceof Refusal) throw e;
    // an unclosed quote at the end: the last whole record ends at `end`
  }
  if (end === size && end > 0) {
    const byte = Buffer.alloc(1);
    const fd = openSync(file, 'r');
    readSync(fd, byte, 0, 1, end - 1);
    closeSync(fd);
    if (byte[0] !== 0x0a && byte[0] !== 0x0d) {
      // the last record has no line end: it was cut short
      records--;
      end = previousEnd;
      last = beforeLast;
      lastChecked = true;
    }
  }
  // a last record means a header was read
  if (last && header && !lastChecked) check(last, header);
  if (end < size && trim) truncateSync(file, end);
  if (records <= 0) return { header: null, rows: 0, last: null, counts };
  return { header, rows: records - 1, last: last?.record ?? null, counts };
}
