/** Schemas shared by routes. Each route's schema validates, serialises and feeds OpenAPI. */
import { Type, type Static, type TSchema } from 'typebox';

/** The codes of the service's error table: what an error body's `error` holds. */
export type { ErrorCode } from '../errors.ts';

export const ErrorBody = Type.Object(
  { error: Type.String(), message: Type.String() },
  { additionalProperties: true, description: 'Every error: a machine code and a sentence for people.' },
);

export const errorResponses = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

export const Attribution = Type.Object({ text: Type.String(), url: Type.String(), note: Type.String() });

/** An object whose listed fields are typed and whose other fields pass through. */
export const Open = <T extends Parameters<typeof Type.Object>[0]>(
  props: T,
  options: { description?: string; title?: string } = {},
) => Type.Object(props, { ...options, additionalProperties: true });

/**
 * A request or answer body, named for the OpenAPI document: its `title` (PascalCase) becomes its
 * component's name in `components.schemas` (src/http/openapi-components.ts).
 */
export const Body = <T extends Parameters<typeof Type.Object>[0]>(title: string, props: T) =>
  Type.Object(props, { title });

/** A named body whose other fields pass through, like Open. */
export const OpenBody = <T extends Parameters<typeof Type.Object>[0]>(title: string, props: T) =>
  Type.Object(props, { title, additionalProperties: true });

/**
 * A schema that also allows null, written as a type list (`type: ['string', 'null']`), never as
 * a union: the serialiser handles a type list directly but tries an `anyOf` branch by branch,
 * and OpenAPI 3.1 keeps the list as it is. Every field whose value
 * can be null needs it: a plain string schema serialises null as "" and a boolean one as false.
 */
export const orNull = <T extends TSchema>(schema: T, description?: string) => {
  const type: unknown = Reflect.get(schema, 'type');
  const values: unknown = Reflect.get(schema, 'enum');
  if (typeof type !== 'string') throw new Error('orNull needs a schema with a single `type`.');
  // A copy under the same title would be another schema of that name (openapi-components.ts).
  const untitled = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'title'));
  return Type.Unsafe<Static<T> | null>({
    ...untitled,
    type: [type, 'null'],
    // OpenAPI 3.0 reads `nullable` as allowing null only where an enum lists it too
    ...(Array.isArray(values) ? { enum: [...values, null] } : {}),
    ...(description ? { description } : {}),
  });
};

/**
 * A string from a fixed list, as `type` + `enum`: a union of literals would become an `anyOf`,
 * which the serialiser tries branch by branch.
 */
export const StringEnum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const NullableString = orNull(Type.String());
export const NullableBoolean = orNull(Type.Boolean());

/** A source with its date (SourceRef in data/answers.ts). */
export const SourceRef = Open({
  name: Type.String(),
  as_of: NullableString,
  as_of_note: Type.Optional(
    Type.String({ description: 'Present when as_of is only the date the file was downloaded.' }),
  ),
});

/*
 * The bank behind a bank code and the SEPA block: shared by the validate, batch and compliance
 * answers. Closed (no additionalProperties) unlike the other answer objects, because they are
 * serialised once per IBAN of a batch, and letting unknown fields through made these two
 * blocks slower to serialise (docs/benchmarks.md). test/routes/response-shapes.test.ts
 * checks at compile time that they list every field of BankByCode and SepaAnswer, so nothing is
 * dropped unnoticed.
 */
export const BankByCode = Type.Object({
  bic: NullableString,
  name: NullableString,
  city: NullableString,
  source: Type.String(),
  as_of: NullableString,
});

export const SepaAnswer = Type.Object({
  country: Type.String(),
  member: Type.Boolean(),
  schemes: Type.Array(Type.String(), {
    description:
      'With `epc_register`: the schemes the bank adheres to today (SCT, SCT_INST, SDD_CORE, SDD_B2B) among the registers imported; with `country`: every scheme for a member country, none otherwise.',
  }),
  basis: StringEnum(
    ['country', 'epc_register'],
    "`epc_register`: the bank's BIC (BIC11, or its BIC8 + XXX) is in the EPC register of participants the operator imported; `country`: by the EPC geographical scope.",
  ),
  bic: orNull(Type.String(), 'The register entry that answered (BIC11, or the BIC8 + XXX); null with `country`.'),
  vop: orNull(
    Type.Object({
      participant: Type.Boolean({ description: "Listed in the EPC's Verification of Payee register and not left." }),
      status: orNull(
        Type.String(),
        'The register\'s status as published, e.g. "Ready for operations" or "Pending EDS registration"; null when not a participant.',
      ),
      roles: Type.Array(Type.String(), { description: '"Requesting PSP", "Responding PSP".' }),
    }),
    'Verification of Payee; null with `country`, or when no VOP register was imported.',
  ),
  source: Type.String(),
  as_of: orNull(Type.String(), 'With `epc_register`: the oldest date among the imported register files.'),
  as_of_note: Type.Optional(
    Type.String({ description: 'Present when as_of is only the date the register was downloaded.' }),
  ),
});
