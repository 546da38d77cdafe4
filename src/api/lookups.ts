/** GET /v1/bic/:code, POST /v1/iban/compliance and GET /v1/ch/clearing/:iid, as declared (declaration.ts). */
import { Type } from 'typebox';
import { checkBicFormat } from '../data/bic-format.ts';
import { LIMITS } from '../plans.ts';
import { defineRoute } from './declaration.ts';
import * as examples from './examples.ts';
import { BicAnswer, ClearingAnswer, ComplianceAnswer } from './lookup-schemas.ts';
import { Body } from './schemas.ts';

const one = () => 1;

export const bicRoute = defineRoute({
  method: 'GET',
  url: '/v1/bic/:code',
  operationId: 'getBic',
  schema: {
    params: Type.Object({
      // No maxLength: a code of any length is the route's own 400 invalid_bic, reason `length`
      // (docs/api.md, GET /v1/bic/:code), not a schema's invalid_request.
      code: Type.String({ description: 'A BIC (ISO 9362), 8 or 11 characters.' }),
    }),
    response: { 200: BicAnswer },
  },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'bic' } },
  errors: ['invalid_bic', 'bic_not_found'],
  example: examples.bic,
  guide: {
    title: 'The bank behind a BIC',
    purpose: 'Looks up a BIC (SWIFT code): the institution, its office and address, LEI, and the dated sources.',
    example: { code: 'DEUTDEFF' },
  },
  mcp: {
    name: 'lookup_bic',
    title: 'Look up a BIC',
    rename: { bic: 'code' },
    refuseParam: (value) => {
      const format = checkBicFormat(value);
      return format.ok
        ? { error: 'invalid_bic', message: 'a BIC holds only ASCII letters and digits', reason: 'characters' }
        : { error: 'invalid_bic', message: format.message, reason: format.reason };
    },
    note: 'A BIC no source lists is the error bic_not_found (not charged).',
  },
});

export const complianceRoute = defineRoute({
  method: 'POST',
  url: '/v1/iban/compliance',
  operationId: 'checkCompliance',
  schema: {
    body: Body('ComplianceRequest', {
      iban: Type.Optional(
        Type.String({
          maxLength: LIMITS.ibanMaxChars,
          description: 'The IBAN to screen (its bank, country and SEPA reach). Send either `iban` or `bic`, not both.',
        }),
      ),
      // No maxLength: a BIC of any length gets the route's own 400 invalid_bic (reason `length`),
      // as on GET /v1/bic/:code (docs/api.md); the body limit bounds it.
      bic: Type.Optional(
        Type.String({
          description: 'The BIC to screen (8 or 11 characters). Send either `iban` or `bic`, not both.',
        }),
      ),
    }),
    response: { 200: ComplianceAnswer },
  },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'compliance' } },
  errors: ['invalid_bic'],
  example: examples.compliance,
  idempotent: true,
  exactlyOneOf: ['iban', 'bic'],
  guide: {
    title: 'Screen an IBAN or a BIC against sanctions and country lists',
    purpose:
      'Screens the bank of an IBAN or a BIC: sanctions lists, FATF and EU high-risk country lists, SEPA reach; a risk score with its flags. Bank-level, not name screening.',
    example: { iban: 'DE89370400440532013000' },
  },
  mcp: { name: 'check_compliance', title: 'Screen a bank for compliance', note: 'Send exactly one of iban or bic.' },
});

export const clearingRoute = defineRoute({
  method: 'GET',
  url: '/v1/ch/clearing/:iid',
  operationId: 'getClearing',
  schema: {
    params: Type.Object({
      iid: Type.String({
        pattern: '^[0-9]{1,5}$',
        description: 'A Swiss/Liechtenstein IID (bank clearing number); leading zeros optional.',
      }),
    }),
    response: { 200: ClearingAnswer },
  },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'clearing' } },
  errors: ['clearing_not_found'],
  example: examples.clearing,
  guide: {
    title: 'Swiss and Liechtenstein clearing entry of an IID',
    purpose: 'Looks up a Swiss or Liechtenstein bank clearing number (IID) in the SIX BankMaster data.',
    example: { iid: '100' },
  },
  mcp: {
    name: 'lookup_swiss_clearing',
    title: 'Look up a Swiss clearing number',
    note: 'An unknown IID is the error clearing_not_found (not charged).',
  },
});
