/** POST /v1/credits/buy/{1k,5k,25k}: a prepaid pack paid by x402 (docs/api.md, "POST /v1/credits/buy/{pack}"). */
import { hash, randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import { cardCheckoutRequired } from '../payments/refusals.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { packRoutes } from '../api/payments.ts';
import { served } from './serve.ts';

/** How long the same request may recover a pack whose answer was lost. */
const RECOVERY_MS = 10 * 60_000;
/** An Idempotency-Key shorter than this could be guessed by whoever sees the payment on chain. */
const RECOVERY_KEY_MIN = 16;

/**
 * What only the buyer's request carried, hashed: who asked (its Idempotency-Key's scope: the key
 * presented, or the network), the keyed hash of its Idempotency-Key, and the route. The payment
 * itself is no proof: once settled, it can be read off the chain. Null when the request cannot
 * be recovered (no Idempotency-Key held, or one too short to be secret).
 */
function recoveryProof(req: FastifyRequest): string | null {
  const held = req.caller.idempotency?.hold;
  const sent = req.headers['idempotency-key'];
  if (!held || typeof sent !== 'string' || sent.length < RECOVERY_KEY_MIN) return null;
  return hash('sha256', `${held.scope}\n${held.key}\n${req.url.split('?')[0]}`);
}

export const creditsRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { keys, config, store, clock, meter } = services;

    // The key is made before the payment settles and revoked if it does not, rather than made
    // after: so money never moves without a key to show for it (a store failure or a crash after
    // settlement would leave a paying buyer with nothing), and the worst a failure here leaves is
    // a row whose secret was never shown to anyone.
    const unpaid = new WeakMap<FastifyRequest, string>();
    const revokeUnpaid = async (req: FastifyRequest) => {
      const id = unpaid.get(req);
      if (id) await store.revokeKey(id, clock());
    };

    // A lost answer (docs/api.md, "POST /v1/credits/buy/{pack}"): for 10 minutes after the payment
    // settled, the same request sent again gets the key it bought with a new secret. Nothing of a
    // secret is kept: the key is rotated, so only the secret shown last works.
    const keepRecovery = async (req: FastifyRequest, paymentId: string) => {
      const keyId = unpaid.get(req);
      const proof = recoveryProof(req);
      if (!keyId || !proof) return;
      const now = clock();
      await store.keepPackRecovery({ paymentId, keyId, proof, expiresAt: now + RECOVERY_MS }, now);
    };
    const recovering = new WeakMap<FastifyRequest, string>();
    const recover = async (req: FastifyRequest, paymentId: string) => {
      const proof = recoveryProof(req);
      const found = proof ? await store.packRecovery(paymentId, clock()) : null;
      if (!found || found.proof !== proof) return false;
      recovering.set(req, found.keyId);
      return true;
    };

    for (const { pack, route } of packRoutes) {
      app.route({
        ...served(route, { x402Unsettled: revokeUnpaid, x402Settled: keepRecovery, x402Recover: recover }),
        handler: async (req, reply) => {
          if (!services.x402) {
            if (!services.card) throw new DomainError('not_found', 'Buying credits is not turned on for this server.');
            throw cardCheckoutRequired({ baseUrl: config.publicUrl, rails: services.rails, now: clock(), pack });
          }
          const recovered = recovering.get(req);
          if (recovered) {
            const key = await store.keyById(recovered);
            if (!key || key.revokedAt !== null)
              throw new DomainError('invalid_api_key', 'The key this payment bought was revoked.');
            const { secret, prefix } = await keys.rotate(key);
            const { plan, used } = await meter.balance(key);
            reply.code(201);
            return {
              api_key: secret,
              key_prefix: prefix,
              tier: 'credits' as const,
              basis: 'credits' as const,
              pack: pack.pack,
              credits: pack.credits,
              balance: Math.max(0, plan.limit - used),
              price_usd: pack.priceUsd,
              recovered: true,
              message:
                'This payment already bought this key; its answer may have been lost, so the key is shown again with a new secret. Any secret shown for it before no longer works. Store this one now. Nothing was charged again.',
            };
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
