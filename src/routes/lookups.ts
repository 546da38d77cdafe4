/** GET /v1/bic/:code, POST /v1/iban/compliance, GET /v1/ch/clearing/:iid. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bicDirectories } from '../data/index.ts';
import { DomainError } from '../errors.ts';
import type { Services } from '../services.ts';
import { attributionFor } from './presentation.ts';
import { bicRoute, clearingRoute, complianceRoute } from '../api/lookups.ts';
import { served } from './serve.ts';

export const lookupRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { data } = services;

    app.route({
      ...served(bicRoute),
      handler: async (req) => {
        const { code } = req.params;
        const format = data.checkBicFormat(code);
        if (!format.ok) throw new DomainError('invalid_bic', format.message, { reason: format.reason });
        const found = data.bic(code);
        if (!found)
          throw new DomainError('bic_not_found', `No loaded source lists ${format.bic11}.`, {
            sources: bicDirectories(data.provenance()).map(({ name, as_of }) => ({ name, as_of })),
          });
        return { ...found, ...attributionFor(req.caller, services) };
      },
    });

    app.route({
      ...served(complianceRoute),
      handler: async (req) => {
        const { iban, bic } = req.body;
        const query = iban !== undefined ? { iban } : bic !== undefined ? { bic } : null;
        if (query === null || (iban !== undefined && bic !== undefined)) {
          throw new DomainError('invalid_request', 'Send exactly one of `iban` or `bic`.');
        }
        const answer = data.compliance(query);
        return { ...answer, ...attributionFor(req.caller, services) };
      },
    });

    app.route({
      ...served(clearingRoute),
      handler: async (req) => {
        const { iid } = req.params;
        const found = data.clearing(iid);
        if (!found)
          throw new DomainError('clearing_not_found', `No institution has IID ${iid} in the loaded SIX data.`);
        return { ...found, ...attributionFor(req.caller, services) };
      },
    });
  };
