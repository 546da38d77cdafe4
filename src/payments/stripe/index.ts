/** The card rail: Stripe Checkout for credit packs and Pro, signed webhooks, and the one-time key reveal. */
import Stripe from 'stripe';
import type { KeyRow } from '../../records.ts';
import { cancelPro, type Cancelled } from './cancel.ts';
import { createCheckout, type CheckoutStarted } from './checkout.ts';
import type { CardProduct, StripeSettings } from './config.ts';
import { CardFulfilment } from './fulfil.ts';
import type { CardContext, CardDeps } from './context.ts';
import { checkoutOutcome, type SuccessAnswer, type Visit } from './success.ts';
import { receiveWebhook, type WebhookReceipt } from './webhook.ts';

export interface CardRail {
  checkout(product: CardProduct, presented: KeyRow | null): Promise<CheckoutStarted>;
  /** `raw` is the exact request body: the signature covers its bytes. */
  webhook(raw: Buffer, signature: string | undefined): Promise<WebhookReceipt>;
  /** The success page's answer; `visit` says whether it may use up the one-time display. */
  outcome(sessionId: string, visit: Visit): Promise<SuccessAnswer>;
  /** Stops a Pro key's subscription from renewing. */
  cancel(key: KeyRow): Promise<Cancelled>;
}

export function createCardRail(settings: StripeSettings, deps: CardDeps): CardRail {
  const stripe = new Stripe(settings.secretKey, {
    ...(settings.api ?? {}),
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'mod97' },
  });
  const ctx: CardContext = { ...deps, settings, stripe, fulfil: new CardFulfilment(deps.store, deps.keys, deps.clock) };
  return {
    checkout: (product, presented) => createCheckout(ctx, product, presented),
    webhook: (raw, signature) => receiveWebhook(ctx, raw, signature),
    outcome: (sessionId, visit) => checkoutOutcome(ctx, sessionId, visit),
    cancel: (key) => cancelPro(ctx, key),
  };
}
