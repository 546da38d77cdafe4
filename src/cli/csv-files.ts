/** The CSV file questions of `mod97 batch`: which delimiter, and how far an earlier run got. */
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { parse } from 'csv-parse';

interface Dialect {
  delimiter: ',' | ';';
  /** The line ending of the header row, used for every row written. */
  eol: '\n' | '\r\n';
}

/** Reads the header line (outside quotes) of the file's first 64 KiB: `;` when it has more of them than `,`. */
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
  let eol: Dialect['eol'] = '\n';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === ',') commas++;
    else if (c === ';') semicolons++;
    else if (c === '\n') {
      if (text[i - 1] === '\r') eol = '\r\n';
      break;
    }
  }
  return { delimiter: semicolons > commas ? ';' : ',', eol };
}

export interface Written {
  /** The header row of the output, or null when the file is missing or empty. */
  header: string[] | null;
  /** Data rows (after the header) that are complete. */
  rows: number;
}

/**
 * How far an earlier run got: its header and the number of whole data rows. A row cut short (a
 * run killed in the middle of a write) is cut off the file, so that appending continues a valid CSV.
 */
export async function scanWritten(file: string, delimiter: string): Promise<Written> {
  if (!existsSync(file) || statSync(file).size === 0) return { header: null, rows: 0 };
  const size = statSync(file).size;
  let header: string[] | null = null;
  let records = 0;
  let end = 0;
  let previousEnd = 0;
  try {
    const parser = createReadStream(file).pipe(parse({ delimiter, relax_column_count: true, info: true }));
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      header ??= record;
      records++;
      previousEnd = end;
      end = info.bytes;
    }
  } catch {
    // an unclosed quote at the end: the last whole record ends at `end`
  }
  const last = Buffer.alloc(1);
  if (end === size && end > 0) {
    const fd = openSync(file, 'r');
    readSync(fd, last, 0, 1, end - 1);
    closeSync(fd);
    if (last[0] !== 0x0a) {
      // the last record has no line end: it was cut short
      records--;
      end = previousEnd;
    }
  }
  if (end < size) truncateSync(file, end);
  if (records <= 0) return { header: null, rows: 0 };
  return { header, rows: records - 1 };
}
