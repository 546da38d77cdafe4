/**
 * The success page's answer. A bought key was created by the webhook with a secret nobody
 * knows; the first visit reveals it by rotating it, once per checkout (store.markDone).
 */
import { DomainError } from '../../errors.ts';
import type { CardContext } from './index.ts';

export type CheckoutOutcome =
  | { status: 'pending'; session_id: string; message: string }
  | {
      status: 'complete';
      session_id: string;
      product: string;
      /** Only on the first visit, and only for a key the purchase created. */
      api_key?: string;
      key_prefix: string;
      tier: string;
      basis: string;
      limit: number;
      message: string;
    };

export async function checkoutOutcome(ctx: CardContext, sessionId: string): Promise<CheckoutOutcome> {
  const checkout = await ctx.store.checkoutBySession(sessionId);
  if (!checkout) throw new DomainError('checkout_not_found', 'No checkout with this session id was started here.');
  if (!checkout.keyId) {
    return {
      status: 'pending',
      session_id: sessionId,
      message: 'Your payment is being confirmed. Reload this page in a few seconds.',
    };
  }
  const key = await ctx.store.keyById(checkout.keyId);
  if (!key) throw new Error(`checkout ${sessionId} points to a missing key`);
  const summary = {
    status: 'complete' as const,
    session_id: sessionId,
    product: checkout.product,
    tier: key.tier,
    basis: key.basis,
    limit: key.limit,
  };
  if (!checkout.newKey) {
    return {
      ...summary,
      key_prefix: key.keyPrefix,
      message: `Your key ${key.keyPrefix}… now has ${key.tier === 'pro' ? 'Pro' : key.tier}. Keep using it as before.`,
    };
  }
  if (!(await ctx.store.markDone('stripe_reveal', sessionId, ctx.clock()))) {
    throw new DomainError(
      'key_already_shown',
      `The key bought in this checkout (${key.keyPrefix}…) was already shown once and is never shown again. If it may have leaked, replace it with POST /v1/keys/rotate, sending the key as Authorization: Bearer <key>.`,
      { key_prefix: key.keyPrefix },
    );
  }
  try {
    const { secret, prefix } = await ctx.keys.rotate(key);
    return {
      ...summary,
      api_key: secret,
      key_prefix: prefix,
      message: 'Store this key now: it is shown only once. Send it as Authorization: Bearer <api_key>.',
    };
  } catch (err) {
    await ctx.store.unmarkDone('stripe_reveal', sessionId);
    throw err;
  }
}
