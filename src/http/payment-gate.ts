/**
 * The payment decisions of a request, for the pipeline (src/http/pipeline.ts): what a refusal
 * offers, the price of a metered call, and the x402 steps wired to this service's keys: the
 * key presented with a payment is recorded with it, and a settled payment may claim that key.
 */
import type { FastifyRequest } from 'fastify';
import { catalogueRoute } from '../api/catalogue.ts';
import type { RouteMeter } from '../api/declaration.ts';
import type { Clock } from '../clock.ts';
import { claimOnPayment } from '../payments/claim.ts';
import { offers, type Rails } from '../payments/offers.ts';
import type { RefusalContext } from '../payments/refusals.ts';
import type { X402Rail } from '../payments/x402/rail.ts';
import { x402PriceUsd } from '../plans.ts';
import type { Meter } from '../quota/meter.ts';
import type { Store } from '../store/types.ts';
import { x402Steps, type X402Steps } from './x402.ts';

/** What the payment steps use of the services (src/services.ts wires them). */
export interface PaymentServices {
  /** Read on each use: tests set the address once the server listens. */
  config: { publicUrl: string };
  rails: Rails;
  clock: Clock;
  meter: Meter;
  store: Store;
  /** x402 pay-per-call; null while the rail is off. */
  x402: X402Rail | null;
}

export const x402PriceOf = (meter: RouteMeter, body: unknown): number => x402PriceUsd(meter.priceKey, meter.cost(body));

export function refusalContext(services: PaymentServices, meter: RouteMeter, body: unknown): RefusalContext {
  const { config, rails, clock } = services;
  return { baseUrl: config.publicUrl, rails, now: clock(), x402PriceUsd: x402PriceOf(meter, body) };
}

/**
 * The x402 steps of this service; null while the rail is off. Every payment requirement carries
 * the route's description and bazaar discovery extension, from the route catalogue (loaded only
 * with the rail on, as the payment SDKs are), derived from the route's declaration.
 */
export async function x402StepsFor(services: PaymentServices): Promise<X402Steps | null> {
  const { x402: rail, config, rails, clock, meter, store } = services;
  if (!rail) return null;
  const { discoveryOf } = await import('./x402-discovery.ts');
  return x402Steps({
    rail,
    discoveryFor: (req) => {
      const { declaration } = req.routeOptions.config;
      const route = declaration && catalogueRoute(declaration);
      return route ? discoveryOf(route) : undefined;
    },
    publicUrl: config.publicUrl,
    keyIdOf: (req) => req.caller?.key?.id ?? null,
    optionsFor: async (req, priceUsd) => {
      const pack = req.routeOptions.config.declaration?.pack;
      // The governing basis, as the quota's own 402s use: a key born in an alert is not monthly.
      const key = req.caller?.key ?? null;
      const plan = key && !pack ? await meter.planFor(key) : null;
      return offers({
        baseUrl: config.publicUrl,
        rails,
        now: clock(),
        x402PriceUsd: priceUsd,
        key: key && plan ? { tier: key.tier, basis: plan.basis } : undefined,
        pack,
      });
    },
    onSettled: (req: FastifyRequest, settled) =>
      claimOnPayment(store, clock, req.caller?.key ?? null, {
        pack: req.routeOptions.config.x402Required === true,
        micros: settled.amountMicros,
      }),
  });
}
