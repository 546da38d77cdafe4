/** Card payments (/v1/card/*) and the credit packs sold by x402 (/v1/credits/buy/*), as declared (declaration.ts). */
import { Type } from 'typebox';
import { CARD_PRODUCTS } from '../payments/stripe/config.ts';
import { PACKS } from '../plans.ts';
import { thousands } from '../thousands.ts';
import { defineRoute } from './declaration.ts';
import * as examples from './examples.ts';
import { Body, Open, OpenBody, orNull } from './schemas.ts';

const CheckoutBody = Body('CheckoutRequest', {
  product: Type.Union(
    CARD_PRODUCTS.map((p) => Type.Literal(p)),
    { description: 'pack_1k, pack_5k, pack_25k (credits, paid once) or pro (monthly subscription).' },
  ),
});
const CheckoutCreated = Body('Checkout', {
  checkout_url: Type.String(),
  session_id: Type.String(),
  expires_at: Type.String(),
  product: Type.String(),
});
const Outcome = OpenBody('CheckoutOutcome', {
  status: Type.String(),
  session_id: Type.String(),
  message: Type.String(),
});

const PackBought = OpenBody('PackBought', {
  api_key: Type.String({ description: 'The credits key, shown once.' }),
  key_prefix: Type.String(),
  tier: Type.Literal('credits'),
  basis: Type.Literal('credits'),
  pack: Type.String(),
  credits: Type.Integer(),
  balance: Type.Integer(),
  price_usd: Type.Number(),
  message: Type.String(),
  recovered: Type.Optional(
    Type.Literal(true, {
      description:
        'Present when this is the same request sent again after its answer was lost: the key it bought, with a new secret.',
    }),
  ),
  claimed_key: Type.Optional(
    Open(
      { key_prefix: Type.String(), tier: Type.String(), basis: Type.String(), limit: Type.Integer() },
      { description: 'Present when an anonymous key was sent: it is claimed once the payment settles.' },
    ),
  ),
});

export const checkoutRoute = defineRoute({
  method: 'POST',
  url: '/v1/card/checkout',
  operationId: 'createCardCheckout',
  schema: { body: CheckoutBody, response: { 201: CheckoutCreated } },
  access: { auth: 'optional' },
  errors: ['already_subscribed', 'checkout_already_open', 'payments_unavailable', 'card_payments_unavailable'],
  example: examples.cardCheckout,
  guide: { title: 'Start a Stripe Checkout for a credit pack or Pro' },
});

export const cancelRoute = defineRoute({
  method: 'POST',
  url: '/v1/card/cancel',
  operationId: 'cancelPro',
  schema: {
    response: {
      200: Body('ProCancelled', {
        key_prefix: Type.String(),
        cancel_at_period_end: Type.Literal(true),
        ends_at: orNull(Type.String(), 'When Pro ends (ISO 8601), if Stripe said.'),
        message: Type.String(),
      }),
    },
  },
  access: { auth: 'key' },
  errors: ['not_subscribed', 'payments_unavailable', 'card_payments_unavailable'],
  example: examples.cardCancel,
  guide: { title: 'Cancel the Pro subscription of the key sent (at the end of the paid period)' },
});

export const successRoute = defineRoute({
  method: 'GET',
  url: '/v1/card/success',
  operationId: 'getCheckoutOutcome',
  schema: {
    querystring: Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 255 }) }),
    response: { 200: Outcome, 202: Outcome },
  },
  access: { auth: 'none' },
  errors: [
    'checkout_not_found',
    'key_already_shown',
    'payments_unavailable',
    'card_payments_unavailable',
    'unavailable',
  ],
  example: examples.cardSuccess,
  document: {
    htmlAnswers: true,
    retryAfter: { 202: 'Seconds (3) before asking again: the payment is not confirmed yet.' },
  },
  guide: { title: 'Outcome of a card checkout; reveals a new key once' },
});

export const webhookRoute = defineRoute({
  method: 'POST',
  url: '/v1/card/webhook',
  operationId: 'receiveStripeEvent',
  schema: { response: { 200: OpenBody('WebhookReceived', { received: Type.Boolean() }) } },
  access: { auth: 'none' },
  errors: ['invalid_signature', 'payments_unavailable', 'card_payments_unavailable'],
  example: examples.cardWebhook,
  document: {
    rawBody: {
      description: 'A Stripe event, verified against the Stripe-Signature header over the exact bytes sent.',
      schema: {
        title: 'StripeEvent',
        type: 'object',
        required: ['id', 'type', 'data'],
        properties: { id: { type: 'string' }, type: { type: 'string' }, data: { type: 'object' } },
      },
      example: { id: 'evt_1', type: 'checkout.session.completed', data: { object: { id: 'cs_test_a1b2c3' } } },
    },
  },
  guide: { title: "Stripe's signed event deliveries" },
});

/** POST /v1/credits/buy/{1k,5k,25k}: one route per pack, sold by x402 alone. */
export const packRoutes = PACKS.map((pack) => {
  const credits = thousands(pack.credits);
  const route = defineRoute({
    method: 'POST',
    url: `/v1/credits/buy/${pack.pack}`,
    operationId: `buyCredits${pack.pack}`,
    schema: { response: { 201: PackBought } },
    access: { auth: 'optional' },
    pack,
    // Not to replay an answer (it carries a secret): to recover one that was lost.
    idempotent: true,
    errors: ['not_found', 'payment_required', 'card_payments_unavailable'],
    example: examples.creditsBuy(pack.pack, pack.credits, pack.priceUsd),
    guide: {
      title: `Buy ${credits} credits by x402`,
      purpose: `Buys a pack of ${credits} credits with x402; answers a new credits key.`,
    },
  });
  return { pack, route };
});
