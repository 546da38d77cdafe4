/** POST /v1/credits/buy/{1k,5k,25k}: a prepaid pack paid by x402 (docs/api.md, "POST /v1/credits/buy/{pack}"). */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import { cardCheckoutRequired } from '../payments/refusals.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { packRoutes } from '../api/payments.ts';
import { served } from './serve.ts';

export const creditsRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { keys, config, store, clock } = services;

    // The key is made before the payment settles and revoked if it does not, rather than made
    // after: so money never moves without a key to show for it (a store failure or a crash after
    // settlement would leave a paying buyer with nothing), and the worst a failure here leaves is
    // a row whose secret was never shown to anyone.
    const unpaid = new WeakMap<FastifyRequest, string>();
    const revokeUnpaid = async (req: FastifyRequest) => {
      const id = unpaid.get(req);
      if (id) await store.revokeKey(id, clock());
    };

    for (const { pack, route } of packRoutes) {
      app.route({
        ...served(route, { x402Unsettled: revokeUnpaid }),
        handler: async (req, reply) => {
          if (!services.x402) {
            if (!services.card) throw new DomainError('not_found', 'Buying credits is not turned on for this server.');
            throw cardCheckoutRequired({ baseUrl: config.publicUrl, rails: services.rails, now: clock(), pack });
          }
          // The presented key is claimed only once the payment settled (app.ts onSettled).
          const { secret, key } = await keys.insert({
            tier: 'credits',
            network: req.caller.network,
            emailHash: null,
            alertBorn: false,
            limit: pack.credits,
            lifetimePeriod: `credits:${randomUUID()}`,
          });
          unpaid.set(req, key.id);
          const presented = req.caller.key;
          reply.code(201);
          return {
            api_key: secret,
            key_prefix: key.keyPrefix,
            tier: 'credits' as const,
            basis: 'credits' as const,
            pack: pack.pack,
            credits: pack.credits,
            balance: pack.credits,
            price_usd: pack.priceUsd,
            message: 'Store this key now: it is shown only once. Credits never expire; each IBAN or lookup draws one.',
            ...(presented?.tier === 'anonymous'
              ? {
                  claimed_key: {
                    key_prefix: presented.keyPrefix,
                    tier: 'claimed',
                    basis: 'lifetime',
                    limit: LIMITS.paidClaimLifetime,
                  },
                }
              : {}),
          };
        },
      });
    }
  };
