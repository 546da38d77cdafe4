/** POST /v1/keys/claim (docs/api.md, "POST /v1/keys/claim"): thin, the rules live in keys/email.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { monthOf } from '../clock.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { requiredKey } from '../http/caller.ts';
import { claimRoute } from '../api/keys.ts';
import { served } from './serve.ts';

export const claimRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { emailKeys, meter, clock } = services;

    app.route({
      ...served(claimRoute),
      preValidation: async (req) => {
        req.body ??= {};
      },
      handler: async (req, reply) => {
        const { body } = req;
        const key = requiredKey(req.caller);
        const outcome = await emailKeys.claim(key, req.caller.network, body.email, body.code);
        if (outcome.status === 'code_sent') {
          reply.code(202);
          return {
            status: 'code_sent' as const,
            key_prefix: key.keyPrefix,
            expires_in_minutes: LIMITS.codeMinutes,
            message: `We mailed a 6-digit code to ${outcome.email}. Send it within ${LIMITS.codeMinutes} minutes as \`code\`, with the same \`email\`, to claim this key.`,
          };
        }
        // The quota headers must already show the claimed plan.
        req.caller.key = outcome.key;
        const { plan, used } = await meter.balance(outcome.key);
        return {
          claimed: true as const,
          tier: outcome.key.tier,
          basis: plan.basis,
          key_prefix: outcome.key.keyPrefix,
          monthly_limit: plan.limit,
          limit: plan.limit,
          used,
          remaining: Math.max(plan.limit - used, 0),
          month: monthOf(clock()),
        };
      },
    });
  };
