/** POST /v1/iban/validate, POST /v1/iban/batch, POST /v1/iban/from-account and POST /v1/iban/extract. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '../errors.ts';
import { errorResponses } from '../http/schemas.ts';
import { extractIbans } from '../iban/extract.ts';
import { ibanFromAccount } from '../iban/from-account.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
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
import { attributionFor, trialBlock } from './presentation.ts';

const batchSize = (body: unknown) => {
  const ibans = typeof body === 'object' && body !== null && 'ibans' in body ? body.ibans : undefined;
  return Array.isArray(ibans) ? Math.max(ibans.length, 1) : 1;
};
const one = () => 1;

export const ibanRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { describe, data } = services;

    /** The BIC as the answer shows it, or a 400 invalid_bic (naming the batch item when there is one). */
    const wellFormedBic = (bic: string | undefined, item?: number): string | undefined => {
      if (bic === undefined) return undefined;
      const format = data.checkBicFormat(bic);
      if (!format.ok) {
        const where = item === undefined ? '' : ` (batch item ${item})`;
        throw new DomainError('invalid_bic', `The BIC${where} is not well formed: ${format.message}.`, {
          reason: format.reason,
          ...(item !== undefined && { item }),
        });
      }
      return bic.replace(/\s+/g, '').toUpperCase();
    };

    app.post(
      '/v1/iban/validate',
      {
        config: {
          access: { auth: 'optional', meter: { cost: one, trial: true, priceKey: 'validate' } },
          errors: ['invalid_bic'],
          example: examples.validate,
        },
        schema: {
          operationId: 'validateIban',
          body: ValidateBody,
          response: { 200: ValidateAnswer, ...errorResponses(400, 401, 402, 413, 415) },
        },
      },
      async (req) => {
        const { iban, bic } = req.body;
        return Object.assign(
          describe(iban, wellFormedBic(bic)),
          attributionFor(req.caller, services),
          trialBlock(req.caller, services),
        );
      },
    );

    app.post(
      '/v1/iban/batch',
      {
        config: {
          access: { auth: 'optional', meter: { cost: batchSize, priceKey: 'batch' } },
          errors: ['invalid_bic', 'batch_too_large'],
          example: examples.batch,
        },
        schema: {
          operationId: 'validateIbanBatch',
          body: BatchBody,
          response: { 200: BatchAnswer, ...errorResponses(400, 401, 402, 413, 415) },
        },
      },
      // Not async: the answer is sent from inside the handler, so a batch's thousand results are
      // serialised and become garbage before the next batch's handler runs, instead of the
      // results of every batch admitted in the same turn being alive at once.
      (req, reply) => {
        const { ibans } = req.body;
        // Every BIC is judged before any IBAN, so an ill-formed one refuses the whole batch.
        const bics = ibans.map((item, i) => (typeof item === 'string' ? undefined : wellFormedBic(item.bic, i)));
        const results = ibans.map((item, i) => describe(typeof item === 'string' ? item : item.iban, bics[i]));
        const byCountry: Record<string, number> = {};
        let valid = 0;
        for (const r of results) {
          if (r.valid) valid++;
          const cc = r.country?.code ?? 'unknown';
          byCountry[cc] = (byCountry[cc] ?? 0) + 1;
        }
        reply.send({
          count: results.length,
          valid,
          invalid: results.length - valid,
          by_country: byCountry,
          results,
          ...attributionFor(req.caller, services),
        });
      },
    );

    app.post(
      '/v1/iban/from-account',
      {
        config: {
          access: { auth: 'optional', meter: { cost: one, priceKey: 'fromAccount' } },
          errors: ['unsupported_country'],
          example: examples.fromAccount,
        },
        schema: {
          operationId: 'ibanFromAccount',
          body: FromAccountBody,
          response: { 200: FromAccountAnswer, ...errorResponses(400, 401, 402, 413, 415) },
        },
      },
      async (req) => {
        const built = ibanFromAccount(req.body);
        if (!built.ok) throw new DomainError(built.error, built.message, { field: built.field });
        const answer = describe(built.iban);
        const ibanRule =
          built.constructed_from.country === 'DE' ? germanIbanRule(data.germanIbanRule(built.iban.slice(4, 12))) : null;
        return {
          ...answer,
          constructed_from: built.constructed_from,
          ...(ibanRule && { iban_rule: ibanRule }),
          ...attributionFor(req.caller, services),
        };
      },
    );

    app.post(
      '/v1/iban/extract',
      {
        config: {
          access: { auth: 'optional', meter: { cost: one, priceKey: 'extract' } },
          errors: ['text_too_long'],
          example: examples.extract,
        },
        schema: {
          body: ExtractBody,
          response: { 200: ExtractAnswer, ...errorResponses(400, 401, 402, 413, 415) },
        },
      },
      async (req) => {
        const { items, truncated } = extractIbans(req.body.text, (iban) => describe(iban), LIMITS.extractMaxItems);
        return {
          count: items.length,
          truncated,
          items: items.map(({ match, start, end, result, ocr }) => ({
            match,
            start,
            end,
            ...result,
            ocr_repaired: ocr !== null,
            ...(ocr && { ocr_repair: ocr }),
          })),
          ...attributionFor(req.caller, services),
        };
      },
    );
  };

/**
 * Some German banks build IBANs under a Bundesbank IBAN rule of their own (merged banks, moved
 * accounts): the standard construction may then not be the IBAN the bank issued, and the answer
 * says so rather than pass it off as certain.
 */
function germanIbanRule(rule: string | null | undefined) {
  if (rule === null || rule === undefined) {
    return {
      rule: null,
      standard: null,
      message:
        "No loaded source names this bank's Bundesbank IBAN rule (import the Bundesbank BLZ file to know it): the IBAN is the standard construction; confirm it with the account holder.",
    };
  }
  const standard = rule.startsWith('0000');
  return {
    rule,
    standard,
    message: standard
      ? 'The bank builds its IBANs the standard way.'
      : `The bank builds its IBANs under Bundesbank IBAN rule ${rule.slice(0, 4)}: the IBAN here is the standard construction and may not be the one the bank issued. Ask the account holder for the IBAN.`,
  };
}
