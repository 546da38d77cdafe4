/** POST /v1/keys/generate, GET /v1/keys/usage, POST /v1/keys/rotate. Thin: parse, call, shape. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { setTrialRateLimit } from '../http/rate-headers.ts';
import { trialUsage, usageReport } from '../quota/usage.ts';
import type { Services } from '../services.ts';
import { requiredKey } from '../http/caller.ts';
import { creationResponse } from '../api/keys-schemas.ts';
import { generateRoute, rotateRoute, usageRoute } from '../api/keys.ts';
import { served } from './serve.ts';

export const keysRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { keys, meter, config, clock } = services;

    app.route({
      ...served(generateRoute),
      // Only an absent body means the anonymous path; a JSON null, array or number fails the schema.
      preValidation: async (req) => {
        if (req.body === undefined) req.body = {};
      },
      handler: async (req, reply) => {
        const { body } = req;
        if (body.email !== undefined || body.code !== undefined) {
          const { issued, email } = await services.emailKeys.generate(req.caller.network, body.email, body.code);
          reply.code(201);
          return creationResponse(issued, config.publicUrl, email);
        }
        const issued = await keys.generateAnonymous(req.caller.network);
        reply.code(201);
        return creationResponse(issued, config.publicUrl);
      },
    });

    app.route({
      ...served(usageRoute),
      handler: async (req, reply) => {
        const { key, network } = req.caller;
        if (!key) {
          // A key's balance gets its headers in the pipeline; the trial's is only known here.
          const used = await meter.trialUsed(network);
          setTrialRateLimit(reply, used, clock());
          return trialUsage(used, clock());
        }
        return usageReport(key, await meter.balance(key), clock(), {
          baseUrl: config.publicUrl,
          rails: services.rails,
        });
      },
    });

    app.route({
      ...served(rotateRoute),
      handler: async (req) => {
        const key = requiredKey(req.caller);
        const { secret, prefix } = await keys.rotate(key);
        req.caller.key = { ...key, keyPrefix: prefix };
        const { plan } = await meter.balance(key);
        return {
          api_key: secret,
          key_prefix: prefix,
          previous_key_prefix: key.keyPrefix,
          tier: key.tier,
          basis: plan.basis,
          monthly_limit: plan.limit,
          message:
            'Store this new key now: it is shown only once. The previous key no longer works; quota and counters carry over.',
        };
      },
    });
  };
