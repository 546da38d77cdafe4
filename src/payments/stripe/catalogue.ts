/** What each card product is in Stripe Checkout: mode, line item and what it grants (from src/plans.ts). */
import type Stripe from 'stripe';
import { PACKS, PRO_PRICE_USD_PER_MONTH, type Pack } from '../../plans.ts';
import { CARD_PRODUCTS, type CardProduct, type PackProduct, type StripeSettings } from './config.ts';

export const isCardProduct = (value: unknown): value is CardProduct =>
  CARD_PRODUCTS.some((product) => product === value);

export function packOf(product: PackProduct): Pack {
  const pack = PACKS.find((p) => `pack_${p.pack}` === product);
  if (!pack) throw new Error(`no pack for ${product}`);
  return pack;
}

export const modeOf = (product: CardProduct): Stripe.Checkout.SessionCreateParams.Mode =>
  product === 'pro' ? 'subscription' : 'payment';

/** A configured Stripe price when there is one, else the catalogue price inline. */
export function lineItem(
  product: CardProduct,
  prices: StripeSettings['prices'],
): Stripe.Checkout.SessionCreateParams.LineItem {
  const price = prices[product];
  if (price) return { price, quantity: 1 };
  if (product === 'pro') {
    return {
      quantity: 1,
      price_data: {
        currency: 'usd',
        unit_amount: PRO_PRICE_USD_PER_MONTH * 100,
        recurring: { interval: 'month' },
        product_data: {
          name: 'mod97 Pro',
          description: '10,000 requests a month on every endpoint, no attribution. Cancel at any time.',
        },
      },
    };
  }
  const pack = packOf(product);
  return {
    quantity: 1,
    price_data: {
      currency: 'usd',
      unit_amount: Math.round(pack.priceUsd * 100),
      product_data: {
        name: `mod97 ${pack.pack} credits`,
        description: `${pack.credits.toLocaleString('en-US')} requests on a new key; credits never expire.`,
      },
    },
  };
}
