/** POST /v1/iban/validate and POST /v1/iban/batch. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../http/schemas.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { BatchAnswer, ValidateAnswer } from './iban-schemas.ts';
import { attributionFor, trialBlock } from './presentation.ts';

const Iban = Type.String({
  maxLength: LIMITS.ibanMaxChars,
  description: 'An IBAN; spaces, hyphens, dots, slashes and a leading "IBAN" are allowed.',
});
const batchSize = (body: unknown) => {
  const ibans = (body as { ibans?: unknown } | undefined)?.ibans;
  return Array.isArray(ibans) ? Math.max(ibans.length, 1) : 1;
};

export const ibanRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { describe } = services;

    app.post(
      '/v1/iban/validate',
      {
        config: { access: { auth: 'optional', meter: { cost: () => 1, trial: true, priceKey: 'validate' } } },
        schema: {
          body: Type.Object({ iban: Iban }),
          response: { 200: ValidateAnswer, ...errorResponses(400, 401, 402, 413, 415) },
        },
      },
      async (req) => {
        const { iban } = req.body;
        return Object.assign(describe(iban), attributionFor(req.caller, services), trialBlock(req.caller, services));
      },
    );

    app.post(
      '/v1/iban/batch',
      {
        config: { access: { auth: 'optional', meter: { cost: batchSize, priceKey: 'batch' } } },
        schema: {
          body: Type.Object({ ibans: Type.Array(Iban, { minItems: 1, maxItems: LIMITS.batchMax }) }),
          response: { 200: BatchAnswer, ...errorResponses(400, 401, 402, 413, 415) },
        },
      },
      async (req) => {
        const { ibans } = req.body;
        const results = ibans.map(describe);
        const byCountry: Record<string, number> = {};
        let valid = 0;
        for (const r of results) {
          if (r.valid) valid++;
          const cc = r.country?.code ?? 'unknown';
          byCountry[cc] = (byCountry[cc] ?? 0) + 1;
        }
        return {
          count: results.length,
          valid,
          invalid: results.length - valid,
          by_country: byCountry,
          results,
          ...attributionFor(req.caller, services),
        };
      },
    );
  };
