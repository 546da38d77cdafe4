/** GET /v1/bic/:code, POST /v1/iban/compliance, GET /v1/ch/clearing/:iid. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError } from '../errors.ts';
import { errorResponses } from '../http/schemas.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import * as examples from './examples.ts';
import { BicAnswer, ClearingAnswer, ComplianceAnswer } from './lookup-schemas.ts';
import { attributionFor } from './presentation.ts';

const one = () => 1;

export const lookupRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { data } = services;

    app.get(
      '/v1/bic/:code',
      {
        config: {
          access: { auth: 'optional', meter: { cost: one, priceKey: 'bic' } },
          errors: ['invalid_bic', 'bic_not_found'],
          example: examples.bic,
        },
        schema: {
          operationId: 'getBic',
          params: Type.Object({
            code: Type.String({ maxLength: 32, description: 'A BIC (ISO 9362), 8 or 11 characters.' }),
          }),
          response: { 200: BicAnswer, ...errorResponses(400, 401, 402, 404) },
        },
      },
      async (req) => {
        const { code } = req.params;
        const format = data.checkBicFormat(code);
        if (!format.ok) throw new DomainError('invalid_bic', format.message, { reason: format.reason });
        const found = data.bic(code);
        if (!found)
          throw new DomainError('bic_not_found', `No loaded source lists ${format.bic11}.`, {
            sources: data.provenance().map(({ name, as_of }) => ({ name, as_of })),
          });
        return { ...found, ...attributionFor(req.caller, services) };
      },
    );

    app.post(
      '/v1/iban/compliance',
      {
        config: {
          access: { auth: 'optional', meter: { cost: one, priceKey: 'compliance' } },
          errors: ['invalid_bic'],
          example: examples.compliance,
        },
        schema: {
          operationId: 'checkCompliance',
          body: Type.Object({
            iban: Type.Optional(Type.String({ maxLength: LIMITS.ibanMaxChars })),
            bic: Type.Optional(Type.String({ maxLength: 32 })),
          }),
          response: { 200: ComplianceAnswer, ...errorResponses(400, 401, 402) },
        },
      },
      async (req) => {
        const { iban, bic } = req.body;
        const query = iban !== undefined ? { iban } : bic !== undefined ? { bic } : null;
        if (query === null || (iban !== undefined && bic !== undefined)) {
          throw new DomainError('invalid_request', 'Send exactly one of `iban` or `bic`.');
        }
        const answer = data.compliance(query);
        return { ...answer, ...attributionFor(req.caller, services) };
      },
    );

    app.get(
      '/v1/ch/clearing/:iid',
      {
        config: {
          access: { auth: 'optional', meter: { cost: one, priceKey: 'clearing' } },
          errors: ['clearing_not_found'],
          example: examples.clearing,
        },
        schema: {
          operationId: 'getClearing',
          params: Type.Object({
            iid: Type.String({
              pattern: '^[0-9]{1,5}$',
              description: 'A Swiss/Liechtenstein IID (bank clearing number); leading zeros optional.',
            }),
          }),
          response: { 200: ClearingAnswer, ...errorResponses(400, 401, 402, 404) },
        },
      },
      async (req) => {
        const { iid } = req.params;
        const found = data.clearing(iid);
        if (!found)
          throw new DomainError('clearing_not_found', `No institution has IID ${iid} in the loaded SIX data.`);
        return { ...found, ...attributionFor(req.caller, services) };
      },
    );
  };
