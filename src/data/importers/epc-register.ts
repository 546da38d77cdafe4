import { SEPA_SCHEMES } from '../countries.ts';
import type { ParsedDataset, SchemeParticipant } from '../types.ts';
import { dateInName, decodeText, readColumns } from './text.ts';
import { ImportError, type ImportInput, type Importer, resolveAsOf } from './types.ts';

/** The EPC registers mod97 reads: the four SEPA schemes and Verification of Payee. */
export const EPC_REGISTER_SCHEMES = [...SEPA_SCHEMES, 'VOP'] as const;
export type RegisterScheme = (typeof EPC_REGISTER_SCHEMES)[number];

/** Each scheme is stored as its own dataset, so that importing one never drops another. */
export const epcDatasetKind = (scheme: RegisterScheme): string => `epc-${scheme.toLowerCase().replace(/_/g, '-')}`;

/** File names of the EPC export (participants_export/<scheme>/...) and of its usual downloads. */
const NAME_PATTERNS: [RegExp, RegisterScheme][] = [
  [/sepainst|sct[_-]?inst/i, 'SCT_INST'],
  [/sddcore|sdd[_-]?core/i, 'SDD_CORE'],
  [/sddb2b|sdd[_-]?b2b/i, 'SDD_B2B'],
  [/vopadherence|(^|[/_-])vop([/_.-]|$)/i, 'VOP'],
  [/sepaadherence|(^|[/_-])sct([/_.-]|$)/i, 'SCT'],
];

/** Registers the EPC publishes that answer nothing mod97 is asked: refused by name, not misread as another. */
const UNREAD = /octinst|oct[_-]inst|spaa|srtp/i;

function schemeOf(input: ImportInput): RegisterScheme {
  const known = EPC_REGISTER_SCHEMES.join(', ');
  const explicit = input.scheme?.toUpperCase().replace(/-/g, '_');
  if (explicit) {
    const scheme = EPC_REGISTER_SCHEMES.find((s) => s === explicit);
    if (scheme) return scheme;
    throw new ImportError(`unknown EPC scheme "${input.scheme}" (one of ${known})`);
  }
  if (UNREAD.test(input.name.split('/').pop() ?? ''))
    throw new ImportError(`${input.name}: mod97 reads only the EPC registers of ${known}`);
  const found = NAME_PATTERNS.find(([pattern]) => pattern.test(input.name));
  if (!found)
    throw new ImportError(
      `cannot tell the EPC scheme of ${input.name}: pass --scheme ${EPC_REGISTER_SCHEMES.join('|')}`,
    );
  return found[1];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The columns read; the export's others are never held. */
const EPC_COLUMNS = [
  'BIC',
  'ParticipantName',
  'Address',
  'City',
  'Readiness Date',
  'Scheme Leaving Date',
  'Status',
  'Role',
] as const;

/** A date column: empty is null; anything but YYYY-MM-DD refuses the file rather than guess what it means. */
function dateOf(row: Record<string, string>, column: string, name: string): string | null {
  const value = row[column] ?? '';
  if (value === '') return null;
  if (ISO_DATE.test(value)) return value;
  throw new ImportError(`${name}: ${row['BIC']}: "${column}" is "${value}", not a date YYYY-MM-DD`);
}

/**
 * An EPC Register of Participants CSV export: one row per participant BIC. Columns are found by
 * their header names, as each scheme's export lays them out differently (VOP adds Status and Role).
 */
export const epcRegister: Importer = {
  kind: 'epc-register',
  title: 'EPC Register of Participants (SCT, SCT Inst, SDD Core, SDD B2B, VOP)',
  // each EPC export is a few MiB: a file many times larger is not the publisher's
  maxBytes: 32 * 1024 * 1024,
  defaultUrls: ['sct', 'sct_inst', 'sdd_core', 'sdd_b2b', 'vop'].map(
    (s) => `https://www.europeanpaymentscouncil.eu/sites/default/files/participants_export/${s}/${s}.csv`,
  ),
  parse(input): ParsedDataset<SchemeParticipant> {
    const scheme = schemeOf(input);
    const { header, rows } = readColumns(decodeText(input.bytes), ',', EPC_COLUMNS, input.name);
    const needs = scheme === 'VOP' ? ['BIC', 'ParticipantName', 'Status'] : ['BIC', 'ParticipantName'];
    if (rows.length === 0 || needs.some((column) => !header.includes(column))) {
      throw new ImportError(
        `${input.name} is not an EPC ${scheme} register export (needs ${needs.join(', ')} columns)`,
      );
    }
    const records = rows
      .map((r): Record<string, string> & { BIC: string } => ({ ...r, BIC: (r['BIC'] ?? '').toUpperCase() }))
      .filter((r) => /^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(r.BIC))
      .map((r): SchemeParticipant => {
        const record: SchemeParticipant = {
          bic: r.BIC,
          name: r['ParticipantName'] ?? '',
          address: r['Address'] || null,
          city: r['City'] || null,
          readiness_date: dateOf(r, 'Readiness Date', input.name),
          leaving_date: dateOf(r, 'Scheme Leaving Date', input.name),
        };
        if (scheme === 'VOP') {
          record.status = r['Status'] || null;
          record.roles = (r['Role'] ?? '')
            .split(';')
            .map((role) => role.trim())
            .filter(Boolean)
            .sort();
        }
        return record;
      });
    const dated = resolveAsOf(input, null, dateInName(input.name), 'the EPC register export carries no date');
    return { kind: epcDatasetKind(scheme), source: `EPC Register of Participants, ${scheme}`, ...dated, records };
  },
};
