/** Stripe webhook deliveries, signed with the Stripe SDK's own test-header helper. */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { StripeObject } from './fake-stripe-api.ts';

export interface Delivery {
  payload: string;
  headers: Record<string, string>;
}

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** An event as Stripe posts it, with a valid Stripe-Signature for `secret`. */
export function signedEvent(
  type: string,
  object: StripeObject,
  secret: string,
  eventId = `evt_test_${randomBytes(12).toString('hex')}`,
): Delivery {
  const payload = JSON.stringify(
    {
      id: eventId,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    },
    null,
    2,
  );
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return { payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } };
}
