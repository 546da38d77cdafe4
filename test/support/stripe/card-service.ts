/** The real service with the card rail on, talking to the fake Stripe API; Stripe's side is driven by the test. */
import { startService, type TestService } from '../app.ts';
import type { Reply } from '../http.ts';
import { newWebhookSecret, signedEvent, type Delivery } from './events.ts';
import { startFakeStripeApi, type FakeStripeApi, type StripeObject } from './fake-stripe-api.ts';

export interface CardService {
  service: TestService;
  api: FakeStripeApi;
  webhookSecret: string;
  checkout(product: string, key?: string): Promise<Reply>;
  /** Posts a delivery to the webhook over a socket, as Stripe does. */
  post(delivery: Delivery): Promise<Reply>;
  deliver(type: string, object: StripeObject, eventId?: string): Promise<Reply>;
  /** Checkout, then Stripe's `checkout.session.completed`. */
  buy(product: string, key?: string): Promise<{ sessionId: string; session: StripeObject }>;
  success(sessionId: string, accept?: string): Promise<Reply>;
}

export async function startCardService(env: Record<string, string> = {}): Promise<CardService> {
  const api = await startFakeStripeApi();
  const webhookSecret = newWebhookSecret();
  const service = await startService({
    env: { STRIPE_SECRET_KEY: api.secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: api.url, ...env },
  });
  const card: CardService = {
    service,
    api,
    webhookSecret,
    checkout: (product, key) => service.call('/v1/card/checkout', { method: 'POST', json: { product }, key }),
    post: (delivery) =>
      service.call('/v1/card/webhook', { method: 'POST', raw: delivery.payload, headers: delivery.headers }),
    deliver: (type, object, eventId) => card.post(signedEvent(type, object, webhookSecret, eventId)),
    async buy(product, key) {
      const started = await card.checkout(product, key);
      if (started.status !== 201) throw new Error(`checkout answered ${started.status}: ${started.text}`);
      const sessionId = started.body.session_id as string;
      const session = api.complete(sessionId);
      const delivered = await card.deliver('checkout.session.completed', session);
      if (delivered.status !== 200) throw new Error(`webhook answered ${delivered.status}: ${delivered.text}`);
      return { sessionId, session };
    },
    success: (sessionId, accept) =>
      service.call(
        `/v1/card/success?session_id=${encodeURIComponent(sessionId)}`,
        accept ? { headers: { accept } } : {},
      ),
  };
  return card;
}
