import type { ParsedDataset, SanctionRecord } from '../types.ts';
import { sdnAdvancedXmlReader } from './ofac-sdn-xml.ts';
import { dateInName, decodeText, readRows } from './text.ts';
import { type ChunkReader, ImportError, type ImportInput, type Importer, mib, resolveAsOf } from './types.ts';

/** OFAC's sdn.csv is a few MiB. */
const SDN_CSV_MAX_BYTES = 32 * 1024 * 1024;

const SWIFT_IN_REMARKS = /SWIFT\/BIC\s+([A-Z0-9]{8}(?:[A-Z0-9]{3})?)\b/g;

/** The bytes read before the file is told apart as XML or CSV. */
const HEAD_BYTES = 64;

/** True when the bytes open like an XML document (after a BOM and white space), whatever the file is called. */
function looksLikeXml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, HEAD_BYTES)).replace(/^(\xEF\xBB\xBF|\uFEFF)/, '');
  return head.trimStart().startsWith('<');
}

const csvTooLarge = (name: string): ImportError =>
  new ImportError(
    `${name} is larger than the ${mib(SDN_CSV_MAX_BYTES)} bound for OFAC sdn.csv (sdn_advanced.xml may be up to 512 MiB); nothing changed`,
  );

/**
 * OFAC's sdn.csv (no header; ent_num, name, type, program, ..., remarks). Only entries whose
 * remarks carry "SWIFT/BIC <code>" are kept: the check is by bank, not by name. OFAC cuts long
 * remarks short in sdn.csv, so a few BICs may be missed. The file carries no date.
 */
function fromCsv(input: ImportInput): ParsedDataset<SanctionRecord> {
  // sdn.csv is parsed whole (the XML is streamed): its own bound keeps that under 1 GiB
  if (input.bytes.byteLength > SDN_CSV_MAX_BYTES) throw csvTooLarge(input.name);
  // 12 fields a row, by position: more are never held
  const rows = readRows(decodeText(input.bytes), ',', input.name, { header: false, width: 12 });
  if (!rows.some((r) => r.length >= 12 && /^\d+$/.test(r[0].trim()))) {
    throw new ImportError(
      `${input.name} is not OFAC sdn.csv (rows of 12 fields starting with ent_num) nor sdn_advanced.xml`,
    );
  }
  const records: SanctionRecord[] = [];
  for (const r of rows) {
    for (const [, bic] of (r[11] ?? '').matchAll(SWIFT_IN_REMARKS)) {
      records.push({
        bic: bic,
        name: r[1].trim(),
        programs: r[3]
          .replace(/^\[|\]$/g, '')
          .split(/\]\s*\[/)
          .map((p) => p.trim())
          .filter((p) => p && p !== '-0-'),
        reference: `OFAC SDN ent_num ${r[0].trim()}`,
      });
    }
  }
  const dated = resolveAsOf(input, null, dateInName(input.name), 'OFAC sdn.csv carries no date');
  return { kind: 'ofac-sdn', source: 'OFAC SDN list (sdn.csv)', ...dated, records };
}

/** sdn_advanced.xml, streamed: the SWIFT/BIC features of the parties, dated by the file's DateOfIssue. */
function fromAdvancedXml(input: Omit<ImportInput, 'bytes'>): ChunkReader<ParsedDataset<SanctionRecord>> {
  const xml = sdnAdvancedXmlReader(input.name);
  return {
    write: (chunk) => xml.write(chunk),
    end() {
      const { issued, records } = xml.end();
      const dated = resolveAsOf(input, issued, dateInName(input.name), 'its DateOfIssue is missing');
      return { kind: 'ofac-sdn', source: 'OFAC SDN list (sdn_advanced.xml)', ...dated, records };
    },
  };
}

/** sdn.csv, gathered whole up to its own bound and parsed at the end. */
function fromCsvChunks(input: Omit<ImportInput, 'bytes'>): ChunkReader<ParsedDataset<SanctionRecord>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    write(chunk) {
      size += chunk.byteLength;
      if (size > SDN_CSV_MAX_BYTES) throw csvTooLarge(input.name);
      chunks.push(Buffer.from(chunk)); // a copy: the caller may reuse its chunk
    },
    end: () => fromCsv({ ...input, bytes: Buffer.concat(chunks, size) }),
  };
}

/**
 * The file as it comes: its first bytes tell XML from CSV. The XML (up to 512 MiB) goes through
 * the parser chunk by chunk and is never held; sdn.csv is held, up to its 32 MiB bound.
 */
function sdnReader(input: Omit<ImportInput, 'bytes'>): ChunkReader<ParsedDataset<SanctionRecord>> {
  let head = new Uint8Array(0);
  let reader: ChunkReader<ParsedDataset<SanctionRecord>> | null = null;
  const choose = (bytes: Uint8Array): ChunkReader<ParsedDataset<SanctionRecord>> => {
    const chosen = looksLikeXml(bytes) ? fromAdvancedXml(input) : fromCsvChunks(input);
    chosen.write(bytes);
    return chosen;
  };
  return {
    write(chunk) {
      if (reader) return reader.write(chunk);
      const bytes = head.byteLength ? Buffer.concat([head, chunk]) : chunk;
      if (bytes.byteLength < HEAD_BYTES) head = Uint8Array.from(bytes);
      else reader = choose(bytes);
    },
    end: () => (reader ?? choose(head)).end(),
  };
}

/** OFAC SDN, from `sdn.csv` or `sdn_advanced.xml`, told apart by content, not by file name. */
export const ofacSdn: Importer<SanctionRecord> = {
  kind: 'ofac-sdn',
  title: 'OFAC Specially Designated Nationals (entries with a SWIFT/BIC)',
  // the XML dates itself and is not cut short like sdn.csv's remarks
  defaultUrls: ['https://www.treasury.gov/ofac/downloads/sanctions/1.0/sdn_advanced.xml'],
  parse(input) {
    if (!looksLikeXml(input.bytes)) return fromCsv(input);
    const reader = fromAdvancedXml(input);
    reader.write(input.bytes);
    return reader.end();
  },
  stream: sdnReader,
};
