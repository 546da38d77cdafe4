import { SEPA_SCHEMES, type SepaScheme } from '../countries.ts';
import type { ParsedDataset, SchemeParticipant } from '../types.ts';
import { byHeader, dateInName, decodeText, parseDelimited } from './text.ts';
import { ImportError, type ImportInput, type Importer, resolveAsOf } from './types.ts';

/** Each scheme is stored as its own dataset, so that importing one never drops another. */
export const epcDatasetKind = (scheme: SepaScheme): string => `epc-${scheme.toLowerCase().replace(/_/g, '-')}`;

/** File names of the EPC export (participants_export/<scheme>/...) and of its usual downloads. */
const NAME_PATTERNS: [RegExp, SepaScheme][] = [
  [/sepainst|sct[_-]?inst/i, 'SCT_INST'],
  [/sddcore|sdd[_-]?core/i, 'SDD_CORE'],
  [/sddb2b|sdd[_-]?b2b/i, 'SDD_B2B'],
  [/sepaadherence|(^|[/_-])sct([/_.-]|$)/i, 'SCT'],
];

function schemeOf(input: ImportInput): SepaScheme {
  const explicit = input.scheme?.toUpperCase().replace(/-/g, '_');
  if (explicit) {
    if ((SEPA_SCHEMES as readonly string[]).includes(explicit)) return explicit as SepaScheme;
    throw new ImportError(`unknown EPC scheme "${input.scheme}" (one of ${SEPA_SCHEMES.join(', ')})`);
  }
  const found = NAME_PATTERNS.find(([pattern]) => pattern.test(input.name));
  if (!found)
    throw new ImportError(`cannot tell the EPC scheme of ${input.name}: pass --scheme ${SEPA_SCHEMES.join('|')}`);
  return found[1];
}

/** An EPC Register of Participants CSV export: one row per participant BIC, columns by name. */
export const epcRegister: Importer = {
  kind: 'epc-register',
  title: 'EPC Register of Participants (SCT, SCT Inst, SDD Core, SDD B2B)',
  // each EPC export is a few MiB: a file many times larger is not the publisher's
  maxBytes: 32 * 1024 * 1024,
  defaultUrls: ['sct', 'sct_inst', 'sdd_core', 'sdd_b2b'].map(
    (s) => `https://www.europeanpaymentscouncil.eu/sites/default/files/participants_export/${s}/${s}.csv`,
  ),
  parse(input): ParsedDataset<SchemeParticipant> {
    const scheme = schemeOf(input);
    const rows = byHeader(parseDelimited(decodeText(input.bytes), ','));
    if (rows.length === 0 || !('BIC' in rows[0]!) || !('ParticipantName' in rows[0]!)) {
      throw new ImportError(`${input.name} is not an EPC register export (needs BIC and ParticipantName columns)`);
    }
    const records = rows
      .filter((r) => /^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(r['BIC'] ?? '') && !r['Scheme Leaving Date'])
      .map((r) => ({
        bic: r['BIC']!,
        name: r['ParticipantName'] ?? '',
        address: r['Address'] || null,
        city: r['City'] || null,
        readiness_date: r['Readiness Date'] || null,
      }));
    const dated = resolveAsOf(input, null, dateInName(input.name), 'the EPC register export carries no date');
    return { kind: epcDatasetKind(scheme), source: `EPC Register of Participants, ${scheme}`, ...dated, records };
  },
};
