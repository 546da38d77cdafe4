/** The coverage table of docs/data-sources.md, written from what a fresh install loads. */
import { COUNTRIES, NATIONAL_CHECKS } from '../iban/index.ts';
import { SEPA_COUNTRIES } from './countries.ts';
import type { DataPlane } from './snapshot.ts';

const COVERAGE_START = '<!-- coverage:start (npm run data:coverage writes this table) -->';
const COVERAGE_END = '<!-- coverage:end -->';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** One row per IBAN country: its bank directories (source, date, codes), national check digits, SEPA. */
export function coverageTable(plane: DataPlane): string {
  const directories = new Map(plane.coverage().map((c) => [c.country, c.directories]));
  const countries = [...new Set([...Object.keys(COUNTRIES), ...directories.keys()])].sort();
  const rows = countries.map((cc) => {
    const dirs = directories.get(cc) ?? [];
    const banks = dirs.length
      ? dirs.map((d) => `${d.source}, ${d.as_of ?? 'undated'}, ${d.codes} codes`).join('; ')
      : 'none (BIC directory only)';
    const national = cc in NATIONAL_CHECKS ? 'checked' : cc in COUNTRIES ? 'none checked' : 'not an IBAN country';
    const sepa = SEPA_COUNTRIES.members.has(cc) ? 'member (EPC scope)' : 'outside';
    return `| ${cc} | ${regionNames.of(cc)} | ${banks} | ${national} | ${sepa} |`;
  });
  const covered = countries.filter((cc) => directories.has(cc)).length;
  return [
    COVERAGE_START,
    `Bank directories for ${covered} countries on a fresh install (bank codes answered, by the source that answers them).`,
    '',
    '| code | country | bank directory (source, as of, bank codes) | national check digits | SEPA |',
    '|---|---|---|---|---|',
    ...rows,
    COVERAGE_END,
  ].join('\n');
}

/** `doc` with its coverage section replaced by `table` (appended when the markers are missing). */
export function withCoverage(doc: string, table: string): string {
  const start = doc.indexOf(COVERAGE_START);
  const end = doc.indexOf(COVERAGE_END);
  if (start < 0 || end < 0) return `${doc.trimEnd()}\n\n## Coverage per country\n\n${table}\n`;
  return doc.slice(0, start) + table + doc.slice(end + COVERAGE_END.length);
}
