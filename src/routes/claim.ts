/** POST /v1/keys/claim (docs/api.md, "POST /v1/keys/claim"): thin, the rules live in keys/email.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { monthOf } from '../clock.ts';
import { errorResponses } from '../http/schemas.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import * as examples from './examples.ts';
import { Claimed, CodeSent } from './keys-schemas.ts';
import { requiredKey } from '../http/caller.ts';

const ClaimBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254, description: 'The address that receives the code.' })),
  code: Type.Optional(
    Type.String({ maxLength: 16, description: 'The 6-digit code from the mail; omit it to get a code.' }),
  ),
});

export const claimRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { emailKeys, meter, clock } = services;

    app.post(
      '/v1/keys/claim',
      {
        config: {
          access: { auth: 'key' },
          errors: [
            'cross_site_request',
            'invalid_email',
            'disposable_email',
            'undeliverable_email',
            'unused_key',
            'verification_required',
            'verification_failed',
            'already_claimed',
            'already_claimed_elsewhere',
            'claim_rate_limited',
            'verification_rate_limited',
            'verification_unavailable',
          ],
          example: examples.claim,
        },
        preValidation: async (req) => {
          req.body ??= {};
        },
        schema: {
          operationId: 'claimKey',
          body: ClaimBody,
          response: { 200: Claimed, 202: CodeSent, ...errorResponses(400, 401, 403, 409, 429, 503) },
        },
      },
      async (req, reply) => {
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
    );
  };
