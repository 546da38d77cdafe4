/** The bodies and answers of POST /v1/reference/validate and /create (docs/api.md, "Payment references"). */
import { Type } from 'typebox';
import { REFERENCE_ERROR_CODES, type ReferenceErrorCode } from '../reference/errors.ts';
import { KID_ALGORITHMS, REFERENCE_TYPES } from '../reference/types.ts';
import { Attribution, orNull, StringEnum } from './schemas.ts';

const TYPE_TEXT =
  '`rf` (ISO 11649 creditor reference), `qrr` (Swiss/Liechtenstein QR reference), `be_ogm` (Belgian structured communication), `fi` (Finnish reference), `no_kid` (Norwegian KID), `se_ocr` (Swedish OCR reference).';

export const ReferenceType = StringEnum(REFERENCE_TYPES, TYPE_TEXT);

export const ReferenceValidateBody = Type.Object(
  {
    reference: Type.String({
      maxLength: 64,
      description: 'The reference as printed or typed: spaces, lower case and the Belgian `+++…+++` frame are allowed.',
    }),
    type: Type.Optional(ReferenceType),
    country: Type.Optional(
      Type.String({
        maxLength: 8,
        description:
          'Where the form alone does not tell the type: BE, CH, LI, FI, NO or SE picks the national reference.',
      }),
    ),
  },
  { title: 'ReferenceValidateRequest' },
);

export const ReferenceCreateBody = Type.Object(
  {
    type: ReferenceType,
    from: Type.String({
      maxLength: 64,
      description:
        "The creditor's number the reference is made from: rf 1-21 letters or digits; qrr up to 26 digits and be_ogm up to 10 (zero-padded on the left); fi 3-19 digits; no_kid and se_ocr 1-24 digits.",
    }),
    algorithm: Type.Optional(
      StringEnum(KID_ALGORITHMS, 'no_kid only: `mod10` (Luhn, the default) or `mod11` (refused when it gives 10).'),
    ),
  },
  { title: 'ReferenceCreateRequest' },
);

export const ReferenceFaultSchema = Type.Object({
  code: StringEnum(
    Object.keys(REFERENCE_ERROR_CODES).filter((code): code is ReferenceErrorCode => code in REFERENCE_ERROR_CODES),
    'reference_empty, reference_characters, reference_length, reference_check_failed or reference_type_unknown.',
  ),
  message: Type.String(),
  candidates: Type.Optional(
    Type.Array(Type.String(), {
      description: 'reference_type_unknown only: the types whose characters, length and check the reference satisfies.',
    }),
  ),
});

/** A reference judged: what validate answers, and create answers for the reference it made. */
export const ReferenceResultSchema = Type.Object(
  {
    reference: Type.String({
      description: 'The electronic form: separators and the Belgian frame removed, upper case.',
    }),
    type: orNull(ReferenceType, 'null when the type cannot be told (error `reference_type_unknown`).'),
    valid: Type.Boolean(),
    formatted: Type.String({
      description:
        'The print form (RF in groups of four, QR reference and Finnish in groups of five from the right, Belgian +++…+++) when characters and length hold; else the electronic form.',
    }),
    errors: Type.Array(ReferenceFaultSchema, { description: 'Empty when valid; else the first fault found.' }),
    suggestions: Type.Array(Type.String(), {
      description:
        'rf and be_ogm with a failed check only: up to 5 references one substitution or one swap of neighbours away whose check holds, leftmost change first.',
    }),
  },
  { title: 'ReferenceValidation' },
);

export const ReferenceAnswer = Type.Object(
  { ...ReferenceResultSchema.properties, attribution: Type.Optional(Attribution) },
  { title: 'ReferenceAnswer' },
);
