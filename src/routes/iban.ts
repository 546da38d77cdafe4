/** POST /v1/iban/validate, POST /v1/iban/batch, POST /v1/iban/from-account and POST /v1/iban/extract. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Described } from '../describe.ts';
import { DomainError } from '../errors.ts';
import { answerText, JsonList } from '../http/json-in-parts.ts';
import { extractIbans } from '../iban/extract.ts';
import { ibanFromAccount } from '../iban/from-account.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { batchRoute, extractRoute, fromAccountRoute, validateRoute } from '../api/iban.ts';
import { attributionFor, trialBlock } from './presentation.ts';
import { served } from './serve.ts';

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

    app.route({
      ...served(validateRoute),
      handler: async (req) => {
        const { iban, bic } = req.body;
        const described = describe(iban, wellFormedBic(bic));
        return Object.assign(
          described,
          { suggestion_details: described.suggestions.map((s) => suggestedIban(describe(s))) },
          attributionFor(req.caller, services),
          trialBlock(req.caller, services),
        );
      },
    });

    app.route({
      ...served(batchRoute),
      // Not async: the answer is sent from inside the handler, so that a batch's results are
      // written and become garbage before the next batch's handler runs.
      handler: (req, reply) => {
        const { ibans } = req.body;
        // Every BIC is judged before any IBAN, so an ill-formed one refuses the whole batch.
        const bics = ibans.map((item, i) => (typeof item === 'string' ? undefined : wellFormedBic(item.bic, i)));
        // Each result is written as it is made (json-in-parts.ts), and the tallies kept beside.
        const results = new JsonList(ibans.length);
        const byCountry: Record<string, number> = {};
        let valid = 0;
        ibans.forEach((item, i) => {
          const r = describe(typeof item === 'string' ? item : item.iban, bics[i]);
          if (r.valid) valid++;
          const cc = r.country?.code ?? 'unknown';
          byCountry[cc] = (byCountry[cc] ?? 0) + 1;
          results.push(r);
        });
        // Not the schema's serialiser: it builds a 700 kB answer from thousands of small strings,
        // which must be joined again to count its bytes (3 times JSON.stringify's CPU per IBAN,
        // docs/benchmarks.md, "Batches"). JSON.stringify's text is the same: describe() gives
        // every result the schema's fields, in the serialiser's order.
        reply.type('application/json; charset=utf-8').send(
          answerText({
            count: ibans.length,
            valid,
            invalid: ibans.length - valid,
            by_country: byCountry,
            results,
            ...attributionFor(req.caller, services),
          }),
        );
      },
    });

    app.route({
      ...served(fromAccountRoute),
      handler: async (req) => {
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
    });

    app.route({
      ...served(extractRoute),
      handler: async (req) => {
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
    });
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

/**
 * A suggestion with what tells it apart for a person: its print form and its bank (null when no
 * loaded register lists it). Looked up here, at no extra cost to the caller: up to three
 * suggestions, each an in-memory lookup, inside the one validate call already charged.
 */
function suggestedIban(d: Described) {
  return { iban: d.iban, formatted: d.formatted, bank: d.bank };
}
