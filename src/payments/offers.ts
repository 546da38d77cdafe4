/**
 * The machine-readable `options` of every 402 (docs/api.md, "402 answers"), from the plans
 * table. The one place they are built: quota and trial refusals, x402 refusals and packs.
 */
import { nextMonthStart } from '../clock.ts';
import { LIMITS, PACKS, type Pack } from '../plans.ts';
import type { Basis, Tier } from '../records.ts';

export interface Rails {
  x402: boolean;
  card: boolean;
}

/** Credit packs can be bought where either rail is on: by card, or in USDC with x402. */
export const packsOnSale = (rails: Rails): boolean => rails.x402 || rails.card;

export type Offer = Record<string, unknown> & { type: string };

export interface OfferContext {
  baseUrl: string;
  rails: Rails;
  now: number;
  /** The x402 price of the refused call, when the rail is on. */
  x402PriceUsd?: number;
  /** Absent on no-key 402s. */
  key?: { tier: Tier; basis: Basis };
  /** The pack whose purchase was refused. */
  pack?: Pack;
}

const packOffer = (baseUrl: string, p: Pack): Offer => ({
  type: 'credits',
  pack: p.pack,
  credits: p.credits,
  price_usd: p.priceUsd,
  url: `${baseUrl}/v1/credits/buy/${p.pack}`,
});

export function offers(ctx: OfferContext): Offer[] {
  if (ctx.pack) return packOffers(ctx, ctx.pack);
  const list: Offer[] = [];
  if (!ctx.key) list.push({ type: 'generate_key', method: 'POST', url: `${ctx.baseUrl}/v1/keys/generate` });
  if (ctx.key?.tier === 'anonymous') {
    list.push({
      type: 'claim',
      method: 'email_code',
      url: `${ctx.baseUrl}/v1/keys/claim`,
      raises_limit_to: LIMITS.freePerMonth,
    });
  }
  if (packsOnSale(ctx.rails)) {
    for (const p of PACKS) list.push(packOffer(ctx.baseUrl, p));
  }
  if (ctx.rails.x402 && ctx.x402PriceUsd !== undefined) list.push({ type: 'x402', price_usd: ctx.x402PriceUsd });
  if (ctx.key?.basis === 'monthly') list.push({ type: 'wait', resets_at: nextMonthStart(ctx.now) });
  return list;
}

/**
 * A refused pack purchase: the other packs, then this one paid by x402; by card checkout when
 * only cards are on. Claiming, waiting or a new free key are left out: the caller came to buy
 * credits, and none of those gives any.
 */
function packOffers(ctx: OfferContext, buying: Pack): Offer[] {
  if (!ctx.rails.x402) {
    const body = { product: `pack_${buying.pack}` };
    return [{ type: 'card', method: 'POST', url: `${ctx.baseUrl}/v1/card/checkout`, body }];
  }
  const others = PACKS.filter((p) => p.pack !== buying.pack).map((p) => packOffer(ctx.baseUrl, p));
  return [...others, { type: 'x402', price_usd: buying.priceUsd }];
}
