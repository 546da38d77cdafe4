/** Starting a Stripe Checkout session for a pack or for Pro, attached to the presented key if any. */
import { randomBytes, randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { isoSeconds } from '../../clock.ts';
import { DomainError } from '../../errors.ts';
import { FREE_TIERS } from '../../plans.ts';
import type { KeyRow } from '../../records.ts';
import type { ProCheckoutHold } from '../../store/types.ts';
import { lineItem, modeOf } from './catalogue.ts';
import type { CardProduct } from './config.ts';
import { type CardContext, stripeFailed } from './context.ts';

export interface CheckoutCreated {
  checkout_url: string;
  session_id: string;
  expires_at: string;
  product: CardProduct;
}

export interface CheckoutStarted {
  answer: CheckoutCreated;
  /** For a purchase that makes a key: the token the buyer's browser keeps (reveal-cookie.ts, BUYER_COOKIE). */
  buyerToken: string | null;
}

const alreadySubscribed = () =>
  new DomainError(
    'already_subscribed',
    'This key already has Pro. To stop it, cancel with POST /v1/card/cancel (the "Cancel Pro" button of /usage).',
  );

/**
 * What the webhook needs, carried in the session's (and the subscription's) signed metadata.
 * Key ids only, never secrets. The id of a key the purchase creates is chosen here, so that
 * every later event about this purchase names the same key.
 */
function purchaseMetadata(product: CardProduct, presented: KeyRow | null): Record<string, string> {
  if (product === 'pro') {
    if (presented?.tier === 'pro') throw alreadySubscribed();
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

/** How long a Pro checkout holds its key while Stripe is asked for the session (the SDK gives up within 40 s). */
const OPENING_MS = 2 * 60_000;

function checkoutAlreadyOpen(open: ProCheckoutHold | null): DomainError {
  if (!open?.sessionId || !open.checkoutUrl) {
    return new DomainError(
      'checkout_already_open',
      'A Pro checkout for this key is already open (it is being started right now): pay in the checkout page it opens. One key holds one Pro subscription.',
    );
  }
  const expiresAt = isoSeconds(open.expiresAt);
  return new DomainError(
    'checkout_already_open',
    `A Pro checkout for this key is already open until ${expiresAt}: pay in it at checkout_url, or start a new one once it has expired. One key holds one Pro subscription.`,
    { checkout_url: open.checkoutUrl, session_id: open.sessionId, expires_at: expiresAt },
  );
}

/**
 * Pro for a key the buyer holds: the key's one Pro checkout, taken before Stripe is asked (so that
 * of two sent at once only one opens), or 409. Returns the hold's token.
 */
async function holdProCheckout(ctx: CardContext, key: KeyRow): Promise<string> {
  const token = randomUUID();
  const now = ctx.clock();
  const claim = await ctx.store.holdProCheckout(
    { keyId: key.id, token, sessionId: null, checkoutUrl: null, expiresAt: now + OPENING_MS },
    now,
  );
  if (!claim.taken) throw checkoutAlreadyOpen(claim.open);
  // A checkout completed since the key was read frees its hold only after it gave Pro: read again.
  const current = await ctx.store.keyById(key.id);
  if (current?.tier === 'pro') {
    await ctx.store.releaseProCheckout(key.id, token);
    throw alreadySubscribed();
  }
  return token;
}

export async function createCheckout(
  ctx: CardContext,
  product: CardProduct,
  presented: KeyRow | null,
): Promise<CheckoutStarted> {
  const metadata = purchaseMetadata(product, presented);
  const holder = product === 'pro' && metadata.mod97_new_key === '0' ? presented : null;
  const hold = holder ? { key: holder, token: await holdProCheckout(ctx, holder) } : null;
  let session: Stripe.Checkout.Session & { url: string };
  try {
    session = await openSession(ctx, product, metadata);
  } catch (err) {
    // No session: nothing holds the key. (Once one exists, a failure below leaves the hold to lapse.)
    if (hold) await ctx.store.releaseProCheckout(hold.key.id, hold.token);
    throw err;
  }
  const now = ctx.clock();
  // Only its keyed hash is stored; the browser keeps the token, never sent anywhere else.
  const buyerToken = metadata.mod97_new_key === '1' ? randomBytes(32).toString('base64url') : null;
  await ctx.store.recordCheckout(session.id, product, now, buyerToken && ctx.keys.hash(buyerToken));
  if (hold) {
    // Held as long as Stripe lets the session be paid, counted from now on this server's clock.
    const lifetime = (session.expires_at - session.created) * 1000;
    const opened = { sessionId: session.id, checkoutUrl: session.url, expiresAt: now + lifetime };
    await ctx.store.openProCheckout(hold.key.id, hold.token, opened);
  }
  const answer = {
    checkout_url: session.url,
    session_id: session.id,
    expires_at: isoSeconds(session.expires_at * 1000),
    product,
  };
  return { answer, buyerToken };
}

async function openSession(
  ctx: CardContext,
  product: CardProduct,
  metadata: Record<string, string>,
): Promise<Stripe.Checkout.Session & { url: string }> {
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
  const { url } = session;
  if (!url)
    throw new DomainError(
      'payments_unavailable',
      'The card payment provider returned no checkout page; nothing was charged.',
    );
  return { ...session, url };
}
