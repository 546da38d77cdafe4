/**
 * Stripe webhooks: verified against STRIPE_WEBHOOK_SECRET, each event id processed exactly
 * once (store.markDone), and given back to Stripe's retries if processing fails.
 *
 * Stripe delivers events in no set order and retries them for days, so an event's copy of a
 * subscription may be older than another already applied. Every event about a subscription is
 * therefore applied by the subscription's state as Stripe gives it now (read back before
 * acting), never by the copy the event carries: a deleted subscription never leaves Pro on,
 * and an old "unpaid" never downgrades a subscription paid since.
 */
import type Stripe from 'stripe';
import { DomainError } from '../../errors.ts';
import { isCardProduct, packOf } from './catalogue.ts';
import { type CardContext, RUNNING, stripeFailed } from './context.ts';

export interface WebhookReceipt {
  received: true;
  duplicate?: true;
}

export async function receiveWebhook(
  ctx: CardContext,
  raw: Buffer,
  signature: string | undefined,
): Promise<WebhookReceipt> {
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
    case 'customer.subscription.updated':
      return subscriptionChanged(ctx, event.data.object);
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
      await ctx.store.linkSubscription(subscriptionId, keyId, ctx.clock());
      await startProIfCurrent(ctx, keyId, subscriptionId);
    } else {
      await ctx.fulfil.ensureNewKey(keyId, { credits: packOf(product).credits });
      if (meta.mod97_claim_key_id) await ctx.fulfil.claimByPack(meta.mod97_claim_key_id);
    }
    await ctx.store.completeCheckout(session.id, product, keyId, newKey, ctx.clock());
    // The key's Pro checkout is no longer open; freed after Pro started, which a new checkout reads.
    if (product === 'pro') await ctx.store.releaseProCheckout(keyId, session.id);
  } catch (err) {
    await ctx.store.unmarkDone('stripe_session', session.id);
    throw err;
  }
}

const ENDED = new Set<Stripe.Subscription.Status>(['canceled', 'incomplete_expired']);

/** The subscription as Stripe has it now; unreachable Stripe gives the event back to Stripe's retries. */
async function currentSubscription(ctx: CardContext, id: string): Promise<Stripe.Subscription> {
  try {
    return await ctx.stripe.subscriptions.retrieve(id);
  } catch (err) {
    throw stripeFailed('confirm the state of a subscription; the event will be processed when Stripe retries it', err);
  }
}

/**
 * A completed Pro checkout starts Pro only if its subscription still runs, and does not take a
 * key from another subscription that runs (a late checkout of an older subscription).
 */
async function startProIfCurrent(ctx: CardContext, keyId: string, subscriptionId: string): Promise<void> {
  const subscription = await currentSubscription(ctx, subscriptionId);
  if (ENDED.has(subscription.status)) return; // ended before its checkout reached us: no Pro
  const key = await ctx.store.keyById(keyId);
  if (key?.tier === 'pro' && key.subscriptionId && key.subscriptionId !== subscriptionId) {
    const held = await currentSubscription(ctx, key.subscriptionId);
    if (RUNNING.has(held.status)) return;
  }
  await ctx.fulfil.startPro(keyId, subscriptionId);
  // paid late or not at all: the key keeps the subscription id, so that paying brings Pro back
  if (!RUNNING.has(subscription.status)) await proStops(ctx, keyId, subscriptionId, false);
}

/**
 * Pro follows the key's subscriptions as Stripe has them now: ended or unpaid, the one Pro rests
 * on hands it to another of the key's that still runs, else the key falls back; paid (again),
 * any of them gives it back.
 */
async function subscriptionChanged(ctx: CardContext, described: Stripe.Subscription): Promise<void> {
  const keyId = described.metadata?.mod97_key_id;
  if (!keyId) return; // not a mod97 subscription
  const subscription = await currentSubscription(ctx, described.id);
  // A subscription completed before every one of a key was recorded is recorded by its next event.
  await ctx.store.linkSubscription(subscription.id, keyId, ctx.clock());
  const { status } = subscription;
  if (ENDED.has(status)) await proStops(ctx, keyId, subscription.id, true);
  else if (status === 'unpaid') await proStops(ctx, keyId, subscription.id, false);
  else if (status === 'active' || status === 'trialing') await ctx.fulfil.resumePro(keyId, subscription.id);
}

/**
 * The subscription `stopped` ended (`final`) or went unpaid. When Pro rests on it, Pro moves to
 * another subscription of the key that still runs, so that no subscription is paid for without
 * giving Pro; only when none runs does the key fall back (fulfil.ts, endPro).
 */
async function proStops(ctx: CardContext, keyId: string, stopped: string, final: boolean): Promise<void> {
  const key = await ctx.store.keyById(keyId);
  if (key?.tier === 'pro' && key.subscriptionId === stopped) {
    for (const other of await ctx.store.subscriptionsOf(keyId)) {
      if (other === stopped || !RUNNING.has((await currentSubscription(ctx, other)).status)) continue;
      if (await ctx.fulfil.movePro(keyId, stopped, other)) return;
    }
  }
  await ctx.fulfil.endPro(keyId, stopped, final);
}
