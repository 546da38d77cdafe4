/** POST /v1/iban/validate, /batch, /from-account and /extract, as declared (declaration.ts). */
import { fromAccountHints } from '../iban/from-account.ts';
import { defineRoute } from './declaration.ts';
import * as examples from './examples.ts';
import {
  BatchAnswer,
  BatchBody,
  ExtractAnswer,
  ExtractBody,
  FromAccountAnswer,
  FromAccountBody,
  ValidateAnswer,
  ValidateBody,
} from './iban-schemas.ts';

/** A batch costs one unit per IBAN; a body that is not a batch costs one (it is refused anyway). */
const batchSize = (body: unknown) => {
  const ibans = typeof body === 'object' && body !== null && 'ibans' in body ? body.ibans : undefined;
  return Array.isArray(ibans) ? Math.max(ibans.length, 1) : 1;
};
const one = () => 1;

export const validateRoute = defineRoute({
  method: 'POST',
  url: '/v1/iban/validate',
  operationId: 'validateIban',
  schema: { body: ValidateBody, response: { 200: ValidateAnswer } },
  access: { auth: 'optional', meter: { cost: one, trial: true, priceKey: 'validate' } },
  errors: ['invalid_bic'],
  example: examples.validate,
  idempotent: true,
  guide: {
    title: 'Validate one IBAN (no key needed within the daily trial)',
    purpose:
      'Validates one IBAN (country, length, structure, ISO 7064 checksum, national check digits) and names its bank, SEPA reach and, for a typo, the valid IBANs one edit away.',
    example: { iban: 'DE89370400440532013000' },
  },
  mcp: {
    name: 'validate_iban',
    title: 'Validate an IBAN',
    note: 'Without an API key it runs on the no-key trial (25 a day per network). An invalid IBAN is a successful, charged result with valid: false, its errors and suggestions.',
  },
});

export const batchRoute = defineRoute({
  method: 'POST',
  url: '/v1/iban/batch',
  operationId: 'validateIbanBatch',
  schema: { body: BatchBody, response: { 200: BatchAnswer } },
  access: { auth: 'optional', meter: { cost: batchSize, priceKey: 'batch' } },
  errors: ['invalid_bic', 'batch_too_large'],
  example: examples.batch,
  idempotent: true,
  guide: {
    title: 'Validate many IBANs, one request of quota per IBAN',
    purpose: 'Validates 1 to 1000 IBANs in one call; results come in request order. Admitted whole or refused whole.',
    example: { ibans: ['DE89370400440532013000', 'GB82WEST12345698765432'] },
  },
  mcp: {
    name: 'validate_ibans',
    title: 'Validate many IBANs',
    note: 'Needs an API key. The whole batch must fit the remaining quota, or nothing is served.',
  },
});

export const fromAccountRoute = defineRoute({
  method: 'POST',
  url: '/v1/iban/from-account',
  operationId: 'ibanFromAccount',
  schema: { body: FromAccountBody, response: { 200: FromAccountAnswer } },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'fromAccount' } },
  errors: ['unsupported_country'],
  example: examples.fromAccount,
  idempotent: true,
  guide: {
    title: 'Build and validate the IBAN of a domestic account number',
    purpose: 'Builds the IBAN of a domestic account (country, bank code, branch code, account) and validates it.',
    example: { country: 'DE', bank_code: '37040044', account: '532013000' },
  },
  mcp: {
    name: 'iban_from_account',
    title: 'Build an IBAN from an account',
    note: `Where the domestic parts go, per country: ${fromAccountHints().join('. ')}.`,
  },
});

export const extractRoute = defineRoute({
  method: 'POST',
  url: '/v1/iban/extract',
  schema: { body: ExtractBody, response: { 200: ExtractAnswer } },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'extract' } },
  errors: ['text_too_long'],
  example: examples.extract,
  idempotent: true,
  guide: {
    title: 'Find and validate every IBAN in a text (invoice, e-mail, scan)',
    purpose:
      'Finds every IBAN in up to 20,000 characters of text (electronic or print form, any case, in tables and sentences), with its offsets and its validate answer; reads the O/0, I/1, S/5, B/8 and Z/2 confusions of scanned text, all at once.',
    example: {
      text: 'Bitte überweisen Sie den Betrag auf IBAN DE89 3704 0044 0532 0130 00 (Commerzbank). Merci de payer sur FR14 2004 1010 0505 0001 3M02 606.',
    },
  },
  mcp: {
    name: 'extract_ibans',
    title: 'Find IBANs in text',
    note: 'Needs an API key (the no-key trial covers validate_iban only). Each item gives the text as found, its start and end offsets and the validate answer; an item with ocr_repaired: true has the repaired IBAN first in suggestions and lists the characters read in ocr_repair.readings. A text over 20,000 characters is text_too_long (not charged): split it at line breaks.',
  },
});
