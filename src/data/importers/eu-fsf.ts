import type { ParsedDataset, SanctionRecord } from '../types.ts';
import { dateInName, decodeText, readColumns } from './text.ts';
import { ImportError, type Importer, resolveAsOf } from './types.ts';

const BIC = /^[A-Z0-9]{8}([A-Z0-9]{3})?$/;

/** The columns read; the file's ~110 others (addresses, birth dates, remarks) are never held. */
const FSF_COLUMNS = [
  'fileGenerationDate',
  'Entity_LogicalId',
  'Entity_EU_ReferenceNumber',
  'Entity_Regulation_Programme',
  'NameAlias_WholeName',
  'Identification_TypeCode',
  'Identification_TypeDescription',
  'Identification_Number',
] as const;

/**
 * The EU's file is the one publisher's CSV wider than the common bound of 64 columns: about
 * 120 (entity, regulation, name, address, birth date, identification and citizenship details).
 */
const FSF_MAX_COLUMNS = 192;

/** `2025-08-01...` or `01/08/2025` (the FSF file's generation date). */
function isoDate(value: string | undefined): string | null {
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(value ?? '');
  if (iso) return iso[1];
  const dmy = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(value ?? '');
  return dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}` : null;
}

/**
 * The EU consolidated financial sanctions file (FSF CSV, ';'-separated, one row per entity
 * detail). Entities are kept when one of their identification rows is a SWIFT/BIC, recognised
 * by its type code or description, so that a renamed code does not silently drop them.
 */
export const euFsf: Importer = {
  kind: 'eu-fsf',
  title: 'EU consolidated financial sanctions list (FSF CSV, entities with a BIC)',
  // the EU file is tens of MiB: a file many times larger is not the publisher's
  maxBytes: 48 * 1024 * 1024,
  defaultUrls: [
    'https://webgate.ec.europa.eu/fsd/fsf/public/files/csvFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw',
  ],
  parse(input): ParsedDataset<SanctionRecord> {
    const { header, rows } = readColumns(decodeText(input.bytes), ';', FSF_COLUMNS, input.name, FSF_MAX_COLUMNS);
    if (rows.length === 0 || !header.includes('Entity_LogicalId') || !header.includes('Identification_Number')) {
      throw new ImportError(
        `${input.name} is not an EU FSF CSV (needs Entity_LogicalId and Identification_Number columns)`,
      );
    }
    const names = new Map<string, string>();
    const found = new Map<string, SanctionRecord>();
    for (const r of rows) {
      const id = r['Entity_LogicalId'];
      if (r['NameAlias_WholeName'] && !names.has(id)) names.set(id, r['NameAlias_WholeName']);
      const type = `${r['Identification_TypeCode'] ?? ''} ${r['Identification_TypeDescription'] ?? ''}`;
      const number = (r['Identification_Number'] ?? '').replace(/\s+/g, '').toUpperCase();
      if (!/swift|bic/i.test(type) || !BIC.test(number)) continue;
      const programme = r['Entity_Regulation_Programme'];
      found.set(`${id}:${number}`, {
        bic: number,
        name: id,
        programs: programme ? [programme] : [],
        reference: `EU FSF ${r['Entity_EU_ReferenceNumber'] || `entity ${id}`}`,
      });
    }
    const records = [...found.values()].map((r) => ({ ...r, name: names.get(r.name) ?? '' }));
    const dated = resolveAsOf(
      input,
      isoDate(rows[0]['fileGenerationDate']),
      dateInName(input.name),
      'its fileGenerationDate column is empty',
    );
    return { kind: 'eu-fsf', source: 'EU consolidated financial sanctions list (FSF)', ...dated, records };
  },
};
