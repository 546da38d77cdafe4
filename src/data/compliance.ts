import { DomainError } from '../errors.ts';
import { validateIban } from '../iban/index.ts';
import type { SepaAnswer, SourceRef } from './answers.ts';
import { checkBicFormat } from './bic-format.ts';
import { COUNTRY_LISTS, type CountryList } from './country-lists.ts';
import { SEPA_COUNTRIES, isCountryCode } from './countries.ts';
import type { SanctionsList } from './imported.ts';
import type { BankByCode, SanctionRecord } from './types.ts';

/** Every weight the score is made of. The score is their sum, capped at 100. */
export const RISK_WEIGHTS = {
  sanctioned_bic: 100,
  fatf_call_for_action: 70,
  eu_high_risk_third_countries: 40,
  fatf_increased_monitoring: 30,
  country_not_identified: 60,
  sanctions_not_screened: 15,
  bank_not_identified: 15,
  // Screened, but designations made since the list's date are missed: less than not screened at all.
  sanctions_stale: 10,
  outside_sepa: 10,
} as const;
type RiskFlagCode = keyof typeof RISK_WEIGHTS;

/** Score thresholds: at or above `high` is high, at or above `medium` is medium, else low. */
export const RISK_LEVELS = { medium: 25, high: 60 } as const;

export const COMPLIANCE_DISCLAIMER =
  'Bank-level screening only: the BIC is checked against the loaded sanctions lists and the country against ' +
  'FATF and EU lists. The account holder is not screened by name; this is not a sanctions clearance.';

export interface RiskFlag {
  code: RiskFlagCode;
  weight: number;
  detail: string;
  source: string;
  as_of: string | null;
}

/** A list more than this far past its as_of (from 00:00 UTC of that day) is stale. */
const SANCTIONS_STALE_MS = 30 * 86_400_000;

interface SanctionsAnswer {
  screened: boolean;
  /** True when the newest screened list is more than 30 days past its as_of (or none is loaded). */
  stale: boolean;
  explanation: string;
  bic: string | null;
  lists: SourceRef[];
  matches: (SanctionRecord & { list: string; as_of: string; match: 'exact' | 'institution' })[];
}

export interface ComplianceAnswer {
  /** `country` is null when the IBAN names none: then nothing country-wide is known. */
  subject: {
    iban: string | null;
    iban_valid: boolean | null;
    bic: string | null;
    country: string | null;
    bank: BankByCode | null;
  };
  sanctions: SanctionsAnswer;
  /** `listed` is null when the country is unknown: "not listed" would be a claim never checked. */
  country_lists: { id: CountryList['id']; title: string; listed: boolean | null; source: string; as_of: string }[];
  sepa: SepaAnswer | null;
  score: number;
  level: 'low' | 'medium' | 'high';
  flags: RiskFlag[];
  disclaimer: string;
}

export type ComplianceQuery = { iban: string } | { bic: string };

interface ComplianceDeps {
  sanctions: SanctionsList[];
  /** The time of the answer, for `stale`. */
  now: number;
  bankForIban(country: string, bankCode: string | null, branchCode?: string | null): BankByCode | null;
  sepa(country: string, bic?: string): SepaAnswer;
}

const LIST_FLAGS: Record<CountryList['id'], RiskFlagCode> = {
  fatf_call_for_action: 'fatf_call_for_action',
  fatf_increased_monitoring: 'fatf_increased_monitoring',
  eu_high_risk_third_countries: 'eu_high_risk_third_countries',
};

/** The newest `as_of` of the loaded lists and the names of the lists that have it. */
function newestLists(lists: SanctionsList[]): { names: string; as_of: string } {
  const as_of = lists.reduce((max, l) => (l.as_of > max ? l.as_of : max), '');
  return {
    names: lists
      .filter((l) => l.as_of === as_of)
      .map((l) => l.name)
      .join(', '),
    as_of,
  };
}

/** An 8-character listing covers every office of the institution; an 11-character one only itself. */
function screen(bic: string | null, lists: SanctionsList[], now: number): SanctionsAnswer {
  const refs = lists.map(
    (l): SourceRef => ({ name: l.name, as_of: l.as_of, ...(l.as_of_note && { as_of_note: l.as_of_note }) }),
  );
  const newest = newestLists(lists).as_of;
  const stale = !newest || now - Date.parse(`${newest}T00:00:00Z`) > SANCTIONS_STALE_MS;
  if (lists.length === 0) {
    return {
      screened: false,
      stale,
      explanation:
        'No sanctions list has been imported into this service, so the bank was not screened. This is not a clean result.',
      bic,
      lists: refs,
      matches: [],
    };
  }
  if (!bic) {
    return {
      screened: false,
      stale,
      explanation: 'The bank could not be identified (no BIC known for this bank code), so it was not screened.',
      bic,
      lists: refs,
      matches: [],
    };
  }
  const bic8 = bic.slice(0, 8);
  const matches: SanctionsAnswer['matches'] = [];
  for (const list of lists) {
    for (const [listed, records] of [
      [bic, list.byBic.get(bic)],
      [bic8, list.byBic.get(bic8)],
      [`${bic8}XXX`, list.byBic.get(`${bic8}XXX`)],
    ] as const) {
      for (const r of records ?? []) {
        if (!matches.some((m) => m.reference === r.reference && m.list === list.name)) {
          matches.push({
            ...r,
            list: list.name,
            as_of: list.as_of,
            match: listed === bic || (bic.endsWith('XXX') && listed === bic8) ? 'exact' : 'institution',
          });
        }
      }
    }
  }
  const dates = lists.map((l) => `${l.name} as of ${l.as_of}`).join(', ');
  const explanation =
    (matches.length
      ? `The BIC is listed on ${[...new Set(matches.map((m) => m.list))].join(', ')}.`
      : `The BIC is on none of the loaded lists (${dates}).`) +
    (stale ? ` The newest list is more than 30 days old: designations made since ${newest} are not screened.` : '');
  return { screened: true, stale, explanation, bic, lists: refs, matches };
}

/**
 * Who is being screened: an IBAN's country (countries outside the IBAN registry, such as Iran,
 * which issues IBANs, are still screened by their prefix) and its bank's BIC where a source
 * knows it, or a BIC's own country. An IBAN naming no country is still answered (an IBAN that
 * fails validation is a successful call; docs/api.md, "POST /v1/iban/compliance"), with the country unknown.
 */
function subjectOf(query: ComplianceQuery, deps: ComplianceDeps): ComplianceAnswer['subject'] {
  if ('bic' in query) {
    const format = checkBicFormat(query.bic);
    // refused as GET /v1/bic refuses it
    if (!format.ok) throw new DomainError('invalid_bic', format.message, { reason: format.reason });
    return { iban: null, iban_valid: null, bic: format.bic11, country: format.bic11.slice(4, 6), bank: null };
  }
  const result = validateIban(query.iban);
  const prefix = result.iban.slice(0, 2);
  const country = result.country?.code ?? (isCountryCode(prefix) ? prefix : null);
  const subject: ComplianceAnswer['subject'] = {
    iban: result.iban,
    iban_valid: result.valid,
    bic: null,
    country,
    bank: null,
  };
  if (country && result.valid && result.bban) {
    subject.bank = deps.bankForIban(country, result.bban.bank_code, result.bban.branch_code);
    const format = subject.bank?.bic ? checkBicFormat(subject.bank.bic) : null;
    subject.bic = format?.ok ? format.bic11 : null;
  }
  return subject;
}

export function compliance(query: ComplianceQuery, deps: ComplianceDeps): ComplianceAnswer {
  const subject = subjectOf(query, deps);
  const flags: RiskFlag[] = [];
  const flag = (code: RiskFlagCode, detail: string, ref: { source: string; as_of: string | null }) =>
    flags.push({ code, weight: RISK_WEIGHTS[code], detail, source: ref.source, as_of: ref.as_of });

  const sanctions = screen(subject.bic, deps.sanctions, deps.now);
  for (const m of sanctions.matches)
    flag('sanctioned_bic', `${m.bic} ${m.name} (${m.programs.join(', ')}), ${m.reference}`, {
      source: m.list,
      as_of: m.as_of,
    });
  if (deps.sanctions.length === 0)
    flag('sanctions_not_screened', sanctions.explanation, { source: 'mod97', as_of: null });
  else if (!subject.bic) flag('bank_not_identified', sanctions.explanation, { source: 'mod97', as_of: null });
  // Only beside loaded lists: with none, sanctions_not_screened already says more.
  if (deps.sanctions.length > 0 && sanctions.stale) {
    const newest = newestLists(deps.sanctions);
    flag(
      'sanctions_stale',
      `The newest sanctions list (${newest.names}, as of ${newest.as_of}) is more than 30 days old: designations made since then are not screened.`,
      { source: newest.names, as_of: newest.as_of },
    );
  }

  const country = subject.country;
  // Unknown is not clean: a payee that cannot be placed in a country is scored high.
  if (!country)
    flag('country_not_identified', 'The IBAN names no country, so no country list or SEPA reach could be checked.', {
      source: 'mod97',
      as_of: null,
    });
  const countryLists = COUNTRY_LISTS.map((list) => {
    const listed = country ? list.countries.has(country) : null;
    if (country && listed) flag(LIST_FLAGS[list.id], `${list.countries.get(country)} is on the ${list.title}`, list);
    return { id: list.id, title: list.title, listed, source: list.source, as_of: list.as_of };
  });

  const sepa = country ? deps.sepa(country, subject.bic ?? undefined) : null;
  if (country && sepa && !sepa.member)
    flag('outside_sepa', `${country} is outside the SEPA schemes' geographical scope`, SEPA_COUNTRIES);

  const score = Math.min(
    100,
    flags.reduce((sum, f) => sum + f.weight, 0),
  );
  const level = score >= RISK_LEVELS.high ? 'high' : score >= RISK_LEVELS.medium ? 'medium' : 'low';
  return {
    subject,
    sanctions,
    country_lists: countryLists,
    sepa,
    score,
    level,
    flags,
    disclaimer: COMPLIANCE_DISCLAIMER,
  };
}
