/** Cancelling Pro from the key itself: Stripe stops renewing, and Pro lasts to the period's end. */
import type Stripe from 'stripe';
import { DomainError } from '../../errors.ts';
import type { KeyRow } from '../../records.ts';
import { type CardContext, stripeFailed } from './context.ts';

export interface Cancelled {
  key_prefix: string;
  cancel_at_period_end: true;
  /** When Pro ends and the key returns to its free plan (ISO 8601), when Stripe says. */
  ends_at: string | null;
  message: string;
}

export async function cancelPro(ctx: CardContext, key: KeyRow): Promise<Cancelled> {
  if (key.tier !== 'pro' || !key.subscriptionId) {
    throw new DomainError('not_subscribed', 'This key has no Pro subscription to cancel.');
  }
  let sub: Stripe.Subscription;
  try {
    sub = await ctx.stripe.subscriptions.update(key.subscriptionId, { cancel_at_period_end: true });
  } catch (err) {
    throw stripeFailed('cancel the subscription; nothing changed', err);
  }
  // The period end sits on the subscription's items in recent API versions, on the subscription in older ones.
  const end =
    sub.items?.data?.[0]?.current_period_end ?? ('current_period_end' in sub ? sub.current_period_end : undefined);
  const endsAt = typeof end === 'number' ? new Date(end * 1000).toISOString().replace('.000Z', 'Z') : null;
  return {
    key_prefix: key.keyPrefix,
    cancel_at_period_end: true,
    ends_at: endsAt,
    message: `Pro will not renew. The key keeps Pro until ${endsAt ?? 'the end of the paid period'}, then returns to its free plan; nothing else changes.`,
  };
}
