/** POST /v1/reference/validate and POST /v1/reference/create. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '../errors.ts';
import { createReference, validateReference } from '../reference/index.ts';
import type { Services } from '../services.ts';
import { createReferenceRoute, validateReferenceRoute } from '../api/references.ts';
import { attributionFor } from './presentation.ts';
import { served } from './serve.ts';

export const referenceRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.route({
      ...served(validateReferenceRoute),
      handler: async (req) => {
        const { reference, type, country } = req.body;
        return { ...validateReference(reference, { type, country }), ...attributionFor(req.caller, services) };
      },
    });

    app.route({
      ...served(createReferenceRoute),
      handler: async (req) => {
        const made = createReference(req.body);
        if (!made.ok) throw new DomainError(made.code, made.message, { field: made.field });
        return { ...made.result, ...attributionFor(req.caller, services) };
      },
    });
  };
