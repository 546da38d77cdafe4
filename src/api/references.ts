/** POST /v1/reference/validate and /v1/reference/create, as declared (declaration.ts). */
import { defineRoute } from './declaration.ts';
import * as examples from './examples.ts';
import { ReferenceAnswer, ReferenceCreateBody, ReferenceValidateBody } from './references-schemas.ts';

const one = () => 1;

export const validateReferenceRoute = defineRoute({
  method: 'POST',
  url: '/v1/reference/validate',
  operationId: 'validateReference',
  schema: { body: ReferenceValidateBody, response: { 200: ReferenceAnswer } },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'referenceValidate' } },
  errors: [],
  example: examples.referenceValidate,
  idempotent: true,
  guide: {
    title: 'Validate a payment reference (RF, QR reference, Belgian, Finnish, Norwegian, Swedish)',
    purpose:
      'Validates a structured payment reference (ISO 11649 RF, Swiss QR reference, Belgian +++…+++, Finnish, Norwegian KID, Swedish OCR): tells its type, checks characters, length and check digits, gives its print form and, for RF and Belgian typos, the references one edit away.',
    example: { reference: 'RF18 5390 0754 7034' },
  },
  mcp: {
    name: 'validate_reference',
    title: 'Validate a payment reference',
    note: 'Needs an API key (the no-key trial covers validate_iban only). Digits alone are ambiguous: send `type`, or `country` (BE, CH, LI, FI, NO, SE); otherwise the answer is type null with reference_type_unknown and its `candidates`. An invalid reference is a successful, charged answer with valid: false.',
  },
});

export const createReferenceRoute = defineRoute({
  method: 'POST',
  url: '/v1/reference/create',
  operationId: 'createReference',
  schema: { body: ReferenceCreateBody, response: { 200: ReferenceAnswer } },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'referenceCreate' } },
  errors: ['reference_empty', 'reference_characters', 'reference_length', 'reference_not_creatable'],
  example: examples.referenceCreate,
  idempotent: true,
  guide: {
    title: "Make a payment reference from the creditor's own number",
    purpose:
      "Makes a structured payment reference of a type (rf, qrr, be_ogm, fi, no_kid, se_ocr) from the creditor's own number (an invoice or customer number) by adding its check digits, and answers it as validate does.",
    example: { type: 'rf', from: '539007547034' },
  },
  mcp: {
    name: 'create_reference',
    title: 'Make a payment reference',
    note: 'Needs an API key (the no-key trial covers validate_iban only). A `from` the type cannot take is a 400 (reference_empty, reference_characters, reference_length; not charged); for no_kid with algorithm mod11, a number whose check would be 10 is reference_not_creatable.',
  },
});
