import { join } from 'node:path';
import { ROOT } from '../../root.ts';
import type { Bundle } from './build.ts';
import { DATA_TERMS } from './terms.ts';

/** "Source as its publisher asks to be cited", per bundled source and country (terms.ts). */
const attributions = (source: string): string =>
  DATA_TERMS.filter((t) => t.source === source && t.verdict === 'may' && t.attribution)
    .map((t) => `${t.countries.join(', ')}: "${t.attribution}"`)
    .join('; ');

/** Where the generated reference data lives (committed; rebuilt by `npm run data:bundle`). */
export const GENERATED_DIR = join(ROOT, 'src/data/generated');

/** SOURCES.md of the generated folder: what each file holds, where from, as of when, under which licence. */
export function sourcesMarkdown(bundle: Bundle): string {
  const dates = (countries: Record<string, { as_of: string | null; rows: unknown[] }>) =>
    Object.entries(countries)
      .map(([cc, c]) => `${cc} ${c.as_of ?? 'undated'} (${c.rows.length})`)
      .join(', ');
  const s = bundle['banks-schwifty.json'];
  const e = bundle['banks-entrecode.json'];
  const six = bundle['six-bankmaster.json'];
  const sdn = bundle['ofac-sdn.json'];
  return `# Generated reference data

Written by \`npm run data:bundle\` (scripts/data-bundle.ts) from the publishers' files; do not
edit by hand. A test regenerates these files when the source folder is present and compares.

## banks-schwifty.json

- Source: ${s.source}, https://github.com/mdomke/schwifty (schwifty/bank_registry), commit 23462330 of 2026-07-23.
- Licence: ${s.licence}. Notice: LICENSE-schwifty.txt.
- Dates and rows per country (date = last change of the country's file): ${dates(s.countries)}.
- Attribution the publishers ask for: ${attributions('schwifty')}.
- Not bundled (terms that do not allow commercial redistribution, or unknown): the other files of the registry; see docs/data-sources.md, "What may ship".
- German check-digit methods (Bundesbank Prüfzifferverfahren): ${Object.keys(s.de_check_methods).length} bank codes.

## banks-entrecode.json

- Source: ${e.source}, https://github.com/entrecode/iban-to-bic (datasets-extended), commit dfe5b9de of 2026-08-20.
- Licence: ${e.licence}. Notice: LICENSE-iban-to-bic.txt.
- Dates and rows per country: ${dates(e.countries)}.
- Attribution the publishers ask for: ${attributions('iban-to-bic')}.

## six-bankmaster.json

- Source: ${six.source}, https://api.six-group.com/api/epcd/bankmaster/v3/bankmaster_V3.csv (as republished in jsp566/DataCombiner, 2025-09).
- As of: ${six.asOf} (the "Valid on" date of its rows); ${six.records.length} IIDs.
- Licence: ${six.licence}.

## ofac-sdn.json

- Source: ${sdn.source}, https://www.treasury.gov/ofac/downloads/sdn.csv (snapshot of jackdwyer/specially-designated-nationals-list, commit a5ec3c5e).
- As of: ${sdn.asOf} (the day of the snapshot; the file states no date); ${sdn.records.length} listed BICs, entries whose remarks name a SWIFT/BIC.
- Licence: ${sdn.licence}.
`;
}
