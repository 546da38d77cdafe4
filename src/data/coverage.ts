/** The coverage table of docs/data-sources.md, written from what a fresh install loads. */
import { COUNTRIES, NATIONAL_CHECKS } from '../iban/index.ts';
import { SCHWIFTY_TERMS } from './bundle/terms.ts';
import { SEPA_COUNTRIES } from './countries.ts';
import type { DataPlane } from './snapshot.ts';

const COVERAGE_START = '<!-- coverage:start (npm run data:coverage writes this table) -->';
const COVERAGE_END = '<!-- coverage:end -->';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** schwifty's files of a country that are not bundled, with their verdict: what an operator may import. */
function importable(cc: string): string {
  const files = SCHWIFTY_TERMS.filter((t) => t.verdict !== 'may' && t.importable !== false && t.countries.includes(cc));
  return files.length
    ? files.map((t) => `\`${t.file}\` (${t.verdict === 'not' ? 'not commercial' : 'terms unknown'})`).join(', ')
    : '';
}

/**
 * One row per IBAN country: its bank directories on a fresh install (source, date, codes), what
 * an import of schwifty's files not bundled adds, national check digits, SEPA.
 */
export function coverageTable(plane: DataPlane): string {
  const directories = new Map(plane.coverage().map((c) => [c.country, c.directories]));
  const countries = [...new Set([...Object.keys(COUNTRIES), ...directories.keys()])].sort();
  const rows = countries.map((cc) => {
    const dirs = directories.get(cc) ?? [];
    const banks = dirs.length
      ? dirs.map((d) => `${d.source}, ${d.as_of ?? 'undated'}, ${d.codes} codes`).join('; ')
      : 'none';
    const national = cc in NATIONAL_CHECKS ? 'checked' : cc in COUNTRIES ? 'none checked' : 'not an IBAN country';
    const sepa = SEPA_COUNTRIES.members.has(cc) ? 'member (EPC scope)' : 'outside';
    return `| ${cc} | ${regionNames.of(cc)} | ${banks} | ${importable(cc)} | ${national} | ${sepa} |`;
  });
  const covered = countries.filter((cc) => directories.has(cc)).length;
  return [
    COVERAGE_START,
    `Bank directories for ${covered} countries on a fresh install (bank codes answered, by the source that answers them), and the files an operator may import for more (\`mod97 data update schwifty-registry\`, under each file's terms: "What may ship").`,
    '',
    '| code | country | bank directory, bundled (source, as of, bank codes) | by import only (schwifty file, terms) | national check digits | SEPA |',
    '|---|---|---|---|---|---|',
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
