/** POST /v1/credits/buy/{1k,5k,25k}: a prepaid pack paid by x402 (docs/api.md, "POST /v1/credits/buy/{pack}"). */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError } from '../errors.ts';
import { errorResponses, Open } from '../http/schemas.ts';
import { cardCheckoutRequired } from '../payments/refusals.ts';
import { LIMITS, PACKS, type Pack } from '../plans.ts';
import type { Services } from '../services.ts';
import * as examples from './examples.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The pack a route sells; its 402s offer the other packs (payments/offers.ts). */
    pack?: Pack;
  }
}

const PackBought = Open({
  api_key: Type.String({ description: 'The credits key, shown once.' }),
  key_prefix: Type.String(),
  tier: Type.Literal('credits'),
  basis: Type.Literal('credits'),
  pack: Type.String(),
  credits: Type.Integer(),
  balance: Type.Integer(),
  price_usd: Type.Number(),
  message: Type.String(),
  claimed_key: Type.Optional(
    Open(
      { key_prefix: Type.String(), tier: Type.String(), basis: Type.String(), limit: Type.Integer() },
      { description: 'Present when an anonymous key was sent: it is claimed once the payment settles.' },
    ),
  ),
});

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

    const buy = (pack: Pack) =>
      app.post(
        `/v1/credits/buy/${pack.pack}`,
        {
          config: {
            access: { auth: 'optional' },
            pack,
            x402Required: true,
            x402Price: () => pack.priceUsd,
            x402Unsettled: revokeUnpaid,
            errors: ['not_found', 'payment_required', 'card_payments_unavailable'],
            example: examples.creditsBuy(pack.pack, pack.credits, pack.priceUsd),
          },
          schema: {
            operationId: `buyCredits${pack.pack}`,
            response: { 201: PackBought, ...errorResponses(400, 401, 402, 404, 502) },
          },
        },
        async (req, reply) => {
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
      );
    for (const pack of PACKS) buy(pack);
  };
