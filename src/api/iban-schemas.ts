/**
 * The validate result, declared field by field: it validates nothing on the way in, but it
 * drives the serialiser of validate, from-account and extract, and the OpenAPI document.
 * Nullable fields use a type list, which the serialiser handles without trying each branch of
 * an `anyOf`. The batch answer alone is written by JSON.stringify (routes/iban.ts says why);
 * there the schema is its documentation, and test/routes/response-shapes.test.ts holds the
 * text equal to what the serialiser writes.
 */
import { Type } from 'typebox';
import {
  Attribution,
  BankByCode,
  Body,
  NullableBoolean,
  NullableString,
  orNull,
  SepaAnswer,
  StringEnum,
} from './schemas.ts';
import { ERROR_CODES, type IbanErrorCode } from '../iban/errors.ts';
import { LIMITS } from '../plans.ts';

const Str = Type.String();

const Clearing = Type.Object({
  iid: Str,
  name: NullableString,
  bic: NullableString,
  sic: NullableBoolean,
  eurosic: NullableBoolean,
  instant_payments: NullableBoolean,
  qr_iid: Type.Boolean(),
  successor_iid: NullableString,
  valid_on: NullableString,
  source: Str,
});

const Trial = Type.Object({
  calls_left_today: Type.Integer(),
  limit: Type.Integer(),
  day: Str,
  resets_at: Str,
  get_key: Type.Object({ method: Str, url: Str }),
});

/** An IBAN as typed or pasted; the route's own checks come after (section "Normalisation" of the API doc). */
const IbanInput = Type.String({
  maxLength: LIMITS.ibanMaxChars,
  description: 'An IBAN; spaces, hyphens, dots, slashes and a leading "IBAN" are allowed.',
});

// No maxLength: a BIC of any length gets the route's own 400 invalid_bic (reason `length`), as
// docs/api.md says for GET /v1/bic/:code; the body limit bounds it.
const BicInput = Type.String({
  description: "A BIC of 8 or 11 characters (spaces and lower case tolerated), checked against the IBAN's bank.",
});

export const ValidateBody = Body('ValidationRequest', { iban: IbanInput, bic: Type.Optional(BicInput) });

export const BatchItem = Type.Union([IbanInput, Type.Object({ iban: IbanInput, bic: Type.Optional(BicInput) })], {
  description: 'An IBAN, or {iban, bic} to check the BIC too.',
});

export const BatchBody = Body('BatchRequest', {
  ibans: Type.Array(BatchItem, {
    minItems: 1,
    maxItems: LIMITS.batchMax,
    description: `1 to ${LIMITS.batchMax} IBANs, each a string or {iban, bic}.`,
  }),
});

const BicCheck = Type.Object(
  {
    bic: Type.String({ description: 'The BIC sent, without spaces, upper case.' }),
    matches: orNull(
      Type.Boolean(),
      "Its first 8 characters equal those of a BIC a source gives for the IBAN's bank; null when no source knows the bank (or the IBAN is invalid).",
    ),
    expected: Type.Array(Str, { description: "Every BIC11 the loaded sources give for the IBAN's bank." }),
  },
  { description: 'Present when a `bic` was sent with the IBAN.' },
);

const NationalCheck = StringEnum(
  ['passed', 'failed', 'not_checked', 'not_implemented', 'unknown_bank'],
  "DE only: the bank's Bundesbank check-digit method on the account number (`not_checked`: method 09).",
);

export const IbanResult = Body('IbanResult', {
  iban: Type.String({ description: 'The electronic form that was checked.' }),
  formatted: Str,
  valid: Type.Boolean(),
  country: orNull(Type.Object({ code: Str, name: Str }), 'null when the country is unknown.'),
  check_digits: NullableString,
  bban: orNull(Type.Object({ bank_code: NullableString, branch_code: NullableString, account_number: NullableString })),
  qr_iban: Type.Boolean(),
  errors: Type.Array(
    Type.Object({
      code: StringEnum(
        Object.keys(ERROR_CODES).filter((code): code is IbanErrorCode => code in ERROR_CODES),
        'One of the validation error codes (docs/api.md, "POST /v1/iban/validate").',
      ),
      message: Str,
      parent: Type.Optional(Type.String({ description: 'territory_code only: the code the IBANs are issued under.' })),
      expected_length: Type.Optional(
        Type.Integer({ description: "invalid_length only: the registry's length for the country." }),
      ),
      length: Type.Optional(Type.Integer({ description: 'invalid_length only: the length of the IBAN given.' })),
    }),
  ),
  suggestions: Type.Array(Str),
  bank: orNull(BankByCode, 'Looked up for valid IBANs only.'),
  sepa: orNull(SepaAnswer),
  clearing: Type.Optional(orNull(Clearing, 'CH and LI only: the Swiss clearing entry of the IID.')),
  national_check: Type.Optional(NationalCheck),
  bic_check: Type.Optional(BicCheck),
  data_version: Str,
});

/** A suggestion as a person reads it: print form and the bank behind it (validate only). */
const SuggestedIban = Type.Object({
  iban: Type.String({ description: 'The suggestion, as in `suggestions`.' }),
  formatted: Type.String({ description: 'Its print form, grouped by four.' }),
  bank: orNull(BankByCode, 'The bank a loaded register lists for it; null when none lists it.'),
});

export const ValidateAnswer = Body('Validation', {
  ...IbanResult.properties,
  suggestion_details: Type.Optional(
    Type.Array(SuggestedIban, {
      description:
        'The entries of `suggestions`, in the same order, with their print form and bank, so that a person can tell them apart. Sent by validate (REST and MCP); batch and extract results do not carry it.',
    }),
  ),
  attribution: Type.Optional(Attribution),
  trial: Type.Optional(Trial),
});

export const BatchAnswer = Body('Batch', {
  count: Type.Integer(),
  valid: Type.Integer(),
  invalid: Type.Integer(),
  by_country: Type.Record(Type.String(), Type.Integer(), {
    description: 'IBANs per country code (`unknown` when none).',
  }),
  results: Type.Array(IbanResult, { description: 'In request order.' }),
  attribution: Type.Optional(Attribution),
});

export const FromAccountBody = Body('FromAccountRequest', {
  country: Type.String({ maxLength: 8, description: 'ISO 3166 code of the account, e.g. "DE".' }),
  bank_code: Type.Optional(
    Type.String({ maxLength: 64, description: 'The national bank code (BLZ, sort code, ABI ...).' }),
  ),
  branch_code: Type.Optional(
    Type.String({ maxLength: 64, description: 'The branch code, where the country has one.' }),
  ),
  account: Type.String({ maxLength: 64, description: 'The domestic account number as written; separators allowed.' }),
});

const ConstructedFrom = Type.Object({
  country: Str,
  bank_code: NullableString,
  branch_code: NullableString,
  account: Type.String({ description: 'The account part as used in the BBAN (padded).' }),
  national_check_digits: orNull(Type.String(), 'The national check digits mod97 computed (FR/MC, ES, IT/SM, PT).'),
});

const IbanRule = Type.Object(
  {
    rule: orNull(Type.String(), 'The Bundesbank IBAN rule (e.g. "000503"), or null when no loaded source names it.'),
    standard: orNull(Type.Boolean(), 'The rule is the standard construction (rule 0000); null when unknown.'),
    message: Str,
  },
  { description: 'DE only: whether the bank builds its IBANs under a special Bundesbank IBAN rule.' },
);

export const FromAccountAnswer = Body('IbanFromAccount', {
  ...IbanResult.properties,
  constructed_from: ConstructedFrom,
  iban_rule: Type.Optional(IbanRule),
  attribution: Type.Optional(Attribution),
});

export const ExtractBody = Body('ExtractionRequest', {
  text: Type.String({
    minLength: 1,
    maxLength: LIMITS.extractMaxChars,
    description: `Free text (an invoice, an e-mail, a scanned letter), 1 to ${LIMITS.extractMaxChars} characters.`,
  }),
});

const OcrReading = Type.Object({
  at: Type.Integer({ description: 'UTF-16 offset in `text` of the character read.' }),
  found: Type.String({ description: 'The character as found.' }),
  read_as: Type.String({ description: 'The character it was read as.' }),
});

const OcrRepair = Type.Object(
  {
    iban: Type.String({ description: 'The valid IBAN after the reading (first in `suggestions`).' }),
    ...OcrReading.properties,
    readings: Type.Array(OcrReading, {
      description:
        'Every character read as its look-alike, in text order (`at`, `found`, `read_as` above are the first).',
    }),
  },
  { description: 'Present when `ocr_repaired` is true.' },
);

export const ExtractItem = Type.Object({
  match: Type.String({ description: 'The text as found, separators included.' }),
  start: Type.Integer({ description: 'UTF-16 offset of the first character in `text`.' }),
  end: Type.Integer({ description: 'UTF-16 offset just after the last character (exclusive).' }),
  ...IbanResult.properties,
  ocr_repaired: Type.Boolean({
    description:
      'The IBAN as found fails, and reading every character scanners confuse (O/0, I/1, L/1, S/5, B/8, Z/2) as its look-alike, where the structure asks for the other class, all at once, makes it valid.',
  }),
  ocr_repair: Type.Optional(OcrRepair),
});

export const ExtractAnswer = Body('Extraction', {
  count: Type.Integer({ description: 'Items listed.' }),
  truncated: Type.Boolean({ description: `More IBANs were in the text than the ${LIMITS.extractMaxItems} listed.` }),
  items: Type.Array(ExtractItem, { description: 'In text order.' }),
  attribution: Type.Optional(Attribution),
});
