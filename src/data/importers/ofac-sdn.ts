import type { ParsedDataset, SanctionRecord } from '../types.ts';
import { dateInName, decodeText, parseDelimited } from './text.ts';
import { ImportError, type Importer, resolveAsOf } from './types.ts';

const SWIFT_IN_REMARKS = /SWIFT\/BIC\s+([A-Z0-9]{8}(?:[A-Z0-9]{3})?)\b/g;

/**
 * OFAC's sdn.csv (no header; ent_num, name, type, program, ..., remarks). Only entries whose
 * remarks carry "SWIFT/BIC <code>" are kept: the check is by bank, not by name. OFAC cuts long
 * remarks short in sdn.csv, so a few BICs may be missed.
 */
export const ofacSdn: Importer = {
  kind: 'ofac-sdn',
  title: 'OFAC Specially Designated Nationals (entries with a SWIFT/BIC)',
  defaultUrls: ['https://www.treasury.gov/ofac/downloads/sdn.csv'],
  parse(input): ParsedDataset<SanctionRecord> {
    const rows = parseDelimited(decodeText(input.bytes), ',');
    if (!rows.some((r) => r.length >= 12 && /^\d+$/.test(r[0]!.trim()))) {
      throw new ImportError(`${input.name} is not OFAC sdn.csv (rows of 12 fields starting with ent_num)`);
    }
    const records: SanctionRecord[] = [];
    for (const r of rows) {
      const remarks = r[11] ?? '';
      for (const [, bic] of remarks.matchAll(SWIFT_IN_REMARKS)) {
        records.push({
          bic: bic!,
          name: r[1]!.trim(),
          programs: r[3]!.replace(/^\[|\]$/g, '').split(/\]\s*\[/).map((p) => p.trim()).filter((p) => p && p !== '-0-'),
          reference: `OFAC SDN ent_num ${r[0]!.trim()}`,
        });
      }
    }
    return { kind: 'ofac-sdn', source: 'OFAC SDN list (sdn.csv)', asOf: resolveAsOf(input, null, dateInName(input.name)), records };
  },
};
