/**
 * Stripe webhooks: verified against STRIPE_WEBHOOK_SECRET, each event id processed exactly
 * once (store.markDone), and given back to Stripe's retries if processing fails.
 */
import type Stripe from 'stripe';
import { DomainError } from '../../errors.ts';
import { isCardProduct, packOf } from './catalogue.ts';
import type { CardContext } from './index.ts';

export interface WebhookReceipt {
  received: true;
  duplicate?: true;
}

export async function receiveWebhook(
  ctx: CardContext,
  raw: Buffer,
  signature: string | undefined,
): Promise<WebhookReceipt> {
  if (!ctx.settings.webhookSecret) {
    throw new DomainError(
      'card_payments_unavailable',
      'Card webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET is not set).',
    );
  }
  let event: Stripe.Event;
  try {
    event = ctx.stripe.webhooks.constructEvent(raw, signature ?? '', ctx.settings.webhookSecret);
  } catch {
    throw new DomainError(
      'invalid_signature',
      'The Stripe-Signature header does not match this body and the webhook secret (or is too old).',
    );
  }
  if (!(await ctx.store.markDone('stripe_event', event.id, ctx.clock()))) return { received: true, duplicate: true };
  try {
    await processEvent(ctx, event);
  } catch (err) {
    await ctx.store.unmarkDone('stripe_event', event.id);
    throw err;
  }
  return { received: true };
}

async function processEvent(ctx: CardContext, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return fulfilCheckout(ctx, event.data.object);
    case 'customer.subscription.deleted':
      return subscriptionChanged(ctx, event.data.object, 'canceled');
    case 'customer.subscription.updated':
      return subscriptionChanged(ctx, event.data.object, event.data.object.status);
    default:
      // Other events (invoice.paid among them) change nothing here; they are acknowledged.
      return;
  }
}

/** A paid checkout: create the bought key, claim the presented anonymous key, or start Pro. */
async function fulfilCheckout(ctx: CardContext, session: Stripe.Checkout.Session): Promise<void> {
  // A delayed payment method completes the session unpaid; `async_payment_succeeded` follows.
  if (session.payment_status === 'unpaid') return;
  const meta = session.metadata ?? {};
  const product = meta.mod97_product;
  const keyId = meta.mod97_key_id;
  if (!isCardProduct(product) || !keyId) return; // not a mod97 checkout
  if (!(await ctx.store.markDone('stripe_session', session.id, ctx.clock()))) return;
  try {
    const newKey = meta.mod97_new_key === '1';
    if (product === 'pro') {
      const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
      if (!subscriptionId) throw new Error(`checkout ${session.id} completed without a subscription`);
      if (newKey) await ctx.fulfil.ensureNewKey(keyId, 'pro');
      await ctx.fulfil.startPro(keyId, subscriptionId);
    } else {
      await ctx.fulfil.ensureNewKey(keyId, { credits: packOf(product).credits });
      if (meta.mod97_claim_key_id) await ctx.fulfil.claimByPack(meta.mod97_claim_key_id);
    }
    await ctx.store.completeCheckout(session.id, product, keyId, newKey, ctx.clock());
  } catch (err) {
    await ctx.store.unmarkDone('stripe_session', session.id);
    throw err;
  }
}

/** Pro follows its subscription: ended or unpaid falls back, paid again comes back. */
async function subscriptionChanged(
  ctx: CardContext,
  subscription: Stripe.Subscription,
  status: Stripe.Subscription.Status,
): Promise<void> {
  const keyId = subscription.metadata?.mod97_key_id;
  if (!keyId) return;
  if (status === 'canceled' || status === 'incomplete_expired') await ctx.fulfil.endPro(keyId, subscription.id, true);
  else if (status === 'unpaid') await ctx.fulfil.endPro(keyId, subscription.id, false);
  else if (status === 'active') await ctx.fulfil.resumePro(keyId, subscription.id);
}
