/** Starting a Stripe Checkout session for a pack or for Pro, attached to the presented key if any. */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { DomainError } from '../../errors.ts';
import { FREE_TIERS } from '../../plans.ts';
import type { KeyRow } from '../../records.ts';
import { lineItem, modeOf } from './catalogue.ts';
import type { CardProduct } from './config.ts';
import { type CardContext, stripeFailed } from './context.ts';

export interface CheckoutCreated {
  checkout_url: string;
  session_id: string;
  expires_at: string;
  product: CardProduct;
}

/**
 * What the webhook needs, carried in the session's (and the subscription's) signed metadata.
 * Key ids only, never secrets. The id of a key the purchase creates is chosen here, so that
 * every later event about this purchase names the same key.
 */
function purchaseMetadata(product: CardProduct, presented: KeyRow | null): Record<string, string> {
  if (product === 'pro') {
    if (presented?.tier === 'pro') {
      throw new DomainError(
        'already_subscribed',
        'This key already has Pro. Manage or cancel the subscription from the receipt Stripe mailed you.',
      );
    }
    const upgrade = presented !== null && FREE_TIERS.has(presented.tier);
    return {
      mod97_product: product,
      mod97_key_id: upgrade ? presented.id : randomUUID(),
      mod97_new_key: upgrade ? '0' : '1',
    };
  }
  return {
    mod97_product: product,
    mod97_key_id: randomUUID(),
    mod97_new_key: '1',
    ...(presented?.tier === 'anonymous' ? { mod97_claim_key_id: presented.id } : {}),
  };
}

export async function createCheckout(
  ctx: CardContext,
  product: CardProduct,
  presented: KeyRow | null,
): Promise<CheckoutCreated> {
  const metadata = purchaseMetadata(product, presented);
  const base = ctx.config.publicUrl;
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: modeOf(product),
    line_items: [lineItem(product, ctx.settings.prices)],
    metadata,
    client_reference_id: metadata.mod97_key_id,
    success_url: `${base}/v1/card/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/?checkout=cancelled`,
    ...(product === 'pro' ? { subscription_data: { metadata } } : {}),
  };
  let session: Stripe.Checkout.Session;
  try {
    session = await ctx.stripe.checkout.sessions.create(params);
  } catch (err) {
    throw stripeFailed('start a checkout; nothing was charged', err);
  }
  if (!session.url)
    throw new DomainError(
      'payments_unavailable',
      'The card payment provider returned no checkout page; nothing was charged.',
    );
  await ctx.store.recordCheckout(session.id, product, ctx.clock());
  return {
    checkout_url: session.url,
    session_id: session.id,
    expires_at: new Date(session.expires_at * 1000).toISOString().replace('.000Z', 'Z'),
    product,
  };
}
