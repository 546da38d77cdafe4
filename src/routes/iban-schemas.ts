/**
 * The validate result, declared field by field: it validates nothing on the way in, but it
 * drives the serialiser (much faster than JSON.stringify over 1000 batch results) and the
 * OpenAPI document. Nullable fields use a type list, which the serialiser handles without
 * trying each branch of an `anyOf`.
 */
import { Type, type TSchema } from 'typebox';
import { Attribution } from '../http/schemas.ts';

const orNull = (schema: TSchema & { type: string }, description?: string) =>
  Type.Unsafe({ ...schema, type: [schema.type, 'null'], ...(description ? { description } : {}) });
const Str = Type.String();
const NullableStr = orNull(Type.String());
const NullableBool = orNull(Type.Boolean());

const Bank = Type.Object({ bic: NullableStr, name: NullableStr, city: NullableStr, source: Str, as_of: NullableStr });

const Sepa = Type.Object({
  country: Str,
  member: Type.Boolean(),
  schemes: Type.Array(Str),
  basis: Type.String({ description: '`country` (EPC geographical scope) or `epc_register` (an imported register).' }),
  source: Str,
  as_of: NullableStr,
  bank: orNull(Type.Object({ bic: Str, schemes: Type.Array(Str) })),
});

const Clearing = Type.Object({
  iid: Str,
  name: NullableStr,
  bic: NullableStr,
  sic: NullableBool,
  eurosic: NullableBool,
  instant_payments: NullableBool,
  qr_iid: Type.Boolean(),
  successor_iid: NullableStr,
  valid_on: NullableStr,
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
  check_digits: NullableStr,
  bban: orNull(Type.Object({ bank_code: NullableStr, branch_code: NullableStr, account_number: NullableStr })),
  qr_iban: Type.Boolean(),
  errors: Type.Array(Type.Object({ code: Str, message: Str })),
  suggestions: Type.Array(Str),
  bank: orNull(Bank, 'Looked up for valid IBANs only.'),
  sepa: orNull(Sepa),
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
  by_country: Type.Record(Type.String(), Type.Integer(), { description: 'IBANs per country code (`unknown` when none).' }),
  results: Type.Array(IbanResult, { description: 'In request order.' }),
  attribution: Type.Optional(Attribution),
});
