/**
 * The validate result, declared field by field: it validates nothing on the way in, but it
 * drives the serialiser (much faster than JSON.stringify over 1000 batch results) and the
 * OpenAPI document. Nullable fields use a type list, which the serialiser handles without
 * trying each branch of an `anyOf`.
 */
import { Type } from 'typebox';
import {
  Attribution,
  BankByCode,
  NullableBoolean,
  NullableString,
  orNull,
  SepaAnswer,
  StringEnum,
} from '../http/schemas.ts';
import { ERROR_CODES, type IbanErrorCode } from '../iban/errors.ts';

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

export const IbanResult = Type.Object({
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
        Object.keys(ERROR_CODES) as IbanErrorCode[],
        'One of the validation error codes (docs/api.md, "POST /v1/iban/validate").',
      ),
      message: Str,
    }),
  ),
  suggestions: Type.Array(Str),
  bank: orNull(BankByCode, 'Looked up for valid IBANs only.'),
  sepa: orNull(SepaAnswer),
  clearing: Type.Optional(orNull(Clearing, 'CH and LI only: the Swiss clearing entry of the IID.')),
  data_version: Str,
});

export const ValidateAnswer = Type.Object({
  ...IbanResult.properties,
  attribution: Type.Optional(Attribution),
  trial: Type.Optional(Trial),
});

export const BatchAnswer = Type.Object({
  count: Type.Integer(),
  valid: Type.Integer(),
  invalid: Type.Integer(),
  by_country: Type.Record(Type.String(), Type.Integer(), {
    description: 'IBANs per country code (`unknown` when none).',
  }),
  results: Type.Array(IbanResult, { description: 'In request order.' }),
  attribution: Type.Optional(Attribution),
});
