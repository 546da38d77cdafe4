/**
 * The answers of GET /v1/bic/:code, POST /v1/iban/compliance and GET /v1/ch/clearing/:iid,
 * field by field after BicAnswer, ComplianceAnswer and ClearingAnswer (data/answers.ts,
 * data/compliance.ts). They drive the serialiser and the OpenAPI document; every object lets
 * unlisted fields through, so a field added to an answer is never dropped, only undocumented.
 * A field that can be null must be declared with orNull: a plain string schema would send "".
 */
import { Type } from 'typebox';
import {
  Attribution,
  BankByCode,
  NullableBoolean,
  NullableString,
  Open,
  OpenBody,
  orNull,
  SepaAnswer,
  SourceRef,
  StringEnum,
} from './schemas.ts';

const Str = Type.String();

export const BicAnswer = OpenBody('Bic', {
  bic: Type.String({ description: 'The code as asked, without spaces, in capitals (8 or 11 characters).' }),
  bic8: Str,
  bic11: Str,
  match: StringEnum(
    ['exact', 'institution'],
    '`exact`: this BIC is listed; `institution`: only other offices of the same BIC8 are (address fields are then null).',
  ),
  name: NullableString,
  city: NullableString,
  address: NullableString,
  postcode: NullableString,
  country: Open({ code: Str, name: orNull(Type.String(), 'English name; null when the code names no region.') }),
  branch: Open({
    code: Type.String({ description: 'The last 3 characters, XXX for the primary office.' }),
    primary_office: Type.Boolean(),
  }),
  lei: orNull(
    Open({ lei: Str, source: Str, as_of: NullableString }),
    'From an imported GLEIF BIC-LEI mapping; null when none lists this BIC.',
  ),
  test_bic: Type.Boolean(),
  sources: Type.Array(SourceRef, {
    description: 'Every loaded source that lists the BIC (or, for `institution`, an office of it).',
  }),
  sepa: SepaAnswer,
  attribution: Type.Optional(Attribution),
});

const SanctionMatch = Open({
  bic: Type.String({ description: 'The BIC as listed (8 or 11 characters).' }),
  name: Str,
  programs: Type.Array(Str),
  reference: Str,
  list: Str,
  as_of: Str,
  match: StringEnum(['exact', 'institution'], '`institution`: the listing covers another office of the same BIC8.'),
});

const RiskFlag = Open({
  code: StringEnum([
    'sanctioned_bic',
    'fatf_call_for_action',
    'eu_high_risk_third_countries',
    'fatf_increased_monitoring',
    'country_not_identified',
    'sanctions_not_screened',
    'bank_not_identified',
    'sanctions_stale',
    'outside_sepa',
  ]),
  weight: Type.Integer({ description: 'What the flag adds to the score.' }),
  detail: Str,
  source: Str,
  as_of: NullableString,
});

export const ComplianceAnswer = OpenBody('Compliance', {
  subject: Open({
    iban: orNull(Type.String(), 'The IBAN in electronic form; null when a BIC was sent.'),
    iban_valid: orNull(Type.Boolean(), 'null when a BIC was sent.'),
    bic: orNull(Type.String(), 'The BIC screened (11 characters); null when the bank could not be identified.'),
    country: orNull(Type.String(), 'null when the IBAN names no country (flag `country_not_identified`).'),
    bank: orNull(BankByCode, "The bank behind a valid IBAN's bank code, where a source knows it."),
  }),
  sanctions: Open({
    screened: Type.Boolean({
      description: 'false when no list is loaded or the bank is unknown: never a clean result.',
    }),
    stale: Type.Boolean({
      description:
        'true when the newest screened list is more than 30 days past its as_of: newer designations are missed.',
    }),
    explanation: Str,
    bic: NullableString,
    lists: Type.Array(SourceRef),
    matches: Type.Array(SanctionMatch),
  }),
  country_lists: Type.Array(
    Open({
      id: StringEnum(['fatf_call_for_action', 'fatf_increased_monitoring', 'eu_high_risk_third_countries']),
      title: Str,
      listed: orNull(Type.Boolean(), 'null when the country is unknown.'),
      source: Str,
      as_of: Str,
    }),
  ),
  sepa: orNull(SepaAnswer, 'null when the country is unknown.'),
  score: Type.Integer({ minimum: 0, maximum: 100, description: "The sum of the flags' weights, capped at 100." }),
  level: StringEnum(['low', 'medium', 'high']),
  flags: Type.Array(RiskFlag),
  disclaimer: Str,
  attribution: Type.Optional(Attribution),
});

export const ClearingAnswer = OpenBody('SwissClearing', {
  iid: Type.String({ description: 'Without leading zeros.' }),
  valid_on: NullableString,
  concatenated: Type.Boolean(),
  successor_iid: orNull(Type.String(), 'For a concatenated IID: the IID that replaces it.'),
  sic_iid: NullableString,
  headquarters_iid: NullableString,
  iid_type: orNull(StringEnum(['headquarters', 'main_branch', 'branch', 'qr_iid'])),
  qr_iid_allocation: NullableString,
  name: NullableString,
  address: Open({
    street: NullableString,
    building_number: NullableString,
    postal_code: NullableString,
    city: NullableString,
    country: NullableString,
  }),
  bic: NullableString,
  sic_participation: NullableBoolean,
  rtgs_customer_payments_chf: NullableBoolean,
  instant_payments_chf: NullableBoolean,
  eurosic_participation: NullableBoolean,
  lsv_bdd_chf: NullableBoolean,
  lsv_bdd_eur: NullableBoolean,
  successor: orNull(
    Open({ iid: Str, name: NullableString, bic: NullableString }),
    'For a concatenated IID: the institution that replaces it.',
  ),
  source: Str,
  as_of: NullableString,
  attribution: Type.Optional(Attribution),
});
