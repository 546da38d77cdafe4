/**
 * Cancelling Pro from the key itself: Stripe stops renewing every subscription of the key that
 * still bills, and Pro lasts to the end of the period paid for (docs/api.md, "POST /v1/card/cancel").
 */
import type Stripe from 'stripe';
import { isoSeconds } from '../../clock.ts';
import { DomainError } from '../../errors.ts';
import type { KeyRow } from '../../records.ts';
import { type CardContext, RUNNING, stripeFailed } from './context.ts';

export interface Cancelled {
  key_prefix: string;
  cancel_at_period_end: true;
  /** When Pro ends and the key returns to its free plan (ISO 8601), when Stripe says. */
  ends_at: string | null;
  message: string;
}

/** Paid for, or to be paid: each would renew and bill. */
const BILLING = new Set<Stripe.Subscription.Status>([...RUNNING, 'unpaid']);

/** The period end sits on the subscription's items in recent API versions, on the subscription in older ones. */
function periodEnd(sub: Stripe.Subscription): number | undefined {
  const end =
    sub.items?.data?.[0]?.current_period_end ?? ('current_period_end' in sub ? sub.current_period_end : undefined);
  return typeof end === 'number' ? end : undefined;
}

export async function cancelPro(ctx: CardContext, key: KeyRow): Promise<Cancelled> {
  // Every subscription bought for the key: a second one (two checkouts paid) is stopped too.
  const ids = new Set(await ctx.store.subscriptionsOf(key.id));
  if (key.subscriptionId) ids.add(key.subscriptionId);
  const billing: Stripe.Subscription[] = [];
  try {
    for (const id of ids) {
      const sub = await ctx.stripe.subscriptions.retrieve(id);
      if (BILLING.has(sub.status)) billing.push(sub);
    }
  } catch (err) {
    throw stripeFailed('read the subscriptions of this key; nothing changed', err);
  }
  if (billing.length === 0) {
    throw new DomainError('not_subscribed', 'This key has no Pro subscription to cancel.');
  }
  let latest: number | undefined;
  for (const sub of billing) {
    let updated: Stripe.Subscription;
    try {
      updated = await ctx.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    } catch (err) {
      throw stripeFailed(
        'cancel the subscription; send the request again (a subscription already stopped stays stopped)',
        err,
      );
    }
    const end = RUNNING.has(updated.status) ? periodEnd(updated) : undefined;
    if (end !== undefined && (latest === undefined || end > latest)) latest = end;
  }
  const endsAt = latest === undefined ? null : isoSeconds(latest * 1000);
  const which = billing.length > 1 ? ` (the ${billing.length} subscriptions of this key stop renewing)` : '';
  return {
    key_prefix: key.keyPrefix,
    cancel_at_period_end: true,
    ends_at: endsAt,
    message: `Pro will not renew${which}. The key keeps Pro until ${endsAt ?? 'the end of the paid period'}, then returns to its free plan; nothing else changes.`,
  };
}
