/**
 * A small stand-in for api.stripe.com on 127.0.0.1, answering only what mod97 calls:
 * POST /v1/checkout/sessions, POST /v1/subscriptions/{id} (cancel at period end) and
 * GET /v1/subscriptions/{id} (the subscription's state now, whatever events say). Sessions are kept so a test can complete them the way Stripe
 * would, and the webhook events for that come from ./events.ts.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

export type Params = { [name: string]: string | Params | Params[] | string[] };
export type StripeObject = Record<string, any>;

export interface FakeStripeApi {
  /** The value for STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  /** Form parameters of every checkout session created, decoded, oldest first. */
  created: Params[];
  sessions: Map<string, StripeObject>;
  /** Form parameters of every subscription update, decoded, with the subscription id. */
  subscriptionUpdates: { id: string; params: Params }[];
  /** The next create or update answers this HTTP status with a Stripe error body. */
  failNext(status: number): void;
  /**
   * Opens a checkout session with these parameters as if the service had asked for it, without
   * asking the service (one started before a release that refuses it, say); returns its id.
   */
  open(params: Params): string;
  /** The session as Stripe sends it once paid (`checkout.session.completed`). */
  complete(sessionId: string): StripeObject;
  /**
   * The subscription a completed Pro session started, moved to `status` in Stripe (what
   * GET /v1/subscriptions/{id} answers from now on), as an event carries it.
   */
  subscription(sessionId: string, status: string): StripeObject;
  /** Subscriptions by id, as Stripe has them now. */
  subscriptions: Map<string, StripeObject>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** `line_items[0][price_data][currency]=usd` → nested objects and arrays, as Stripe reads it. */
export function decodeForm(body: string): Params {
  const root: any = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = name.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
    });
  }
  return root;
}

export async function startFakeStripeApi(
  secretKey = `sk_test_${randomBytes(12).toString('hex')}`,
): Promise<FakeStripeApi> {
  const created: Params[] = [];
  const sessions = new Map<string, StripeObject>();
  const subscriptionUpdates: { id: string; params: Params }[] = [];
  const subscriptions = new Map<string, StripeObject>();
  let failure: number | null = null;

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const read = req.method === 'GET' ? /^\/v1\/subscriptions\/([\w-]+)$/.exec(req.url ?? '') : null;
    if (read) {
      const found = subscriptions.get(read[1]!);
      if (!found)
        return send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such subscription: '${read[1]}'`,
          },
        });
      return send(200, found);
    }
    const update = req.method === 'POST' ? /^\/v1\/subscriptions\/([\w-]+)$/.exec(req.url ?? '') : null;
    if (update && failure !== null) {
      const status = failure;
      failure = null;
      return send(status, { error: { type: 'invalid_request_error', message: 'No such subscription.' } });
    }
    if (update) {
      const params = decodeForm(Buffer.concat(chunks).toString('utf8'));
      subscriptionUpdates.push({ id: update[1], params });
      const periodEnd = Math.floor(Date.now() / 1000) + 20 * 24 * 3600;
      const known = subscriptions.get(update[1]);
      const cancelAtPeriodEnd = params.cancel_at_period_end === 'true';
      if (known) known.cancel_at_period_end = cancelAtPeriodEnd;
      return send(200, {
        ...(known ?? { id: update[1], object: 'subscription', status: 'active' }),
        cancel_at_period_end: cancelAtPeriodEnd,
        items: { object: 'list', data: [{ id: id('si'), object: 'subscription_item', current_period_end: periodEnd }] },
      });
    }
    if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
      return send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` },
      });
    }
    if (failure !== null) {
      const status = failure;
      failure = null;
      return send(status, { error: { type: 'api_error', message: 'An unknown error occurred.' } });
    }
    const { subscription_data_metadata: _kept, ...answer } = openSession(
      decodeForm(Buffer.concat(chunks).toString('utf8')),
    );
    send(200, answer);
  });

  /** A checkout session, as POST /v1/checkout/sessions creates it from these parameters. */
  function openSession(params: Params): StripeObject {
    created.push(params);
    const sessionId = id('cs');
    const now = Math.floor(Date.now() / 1000);
    const session = {
      id: sessionId,
      object: 'checkout.session',
      mode: params.mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `https://checkout.stripe.com/c/pay/${sessionId}`,
      created: now,
      expires_at: now + 24 * 3600,
      currency: 'usd',
      amount_total: amountOf(params),
      client_reference_id: params.client_reference_id ?? null,
      metadata: params.metadata ?? {},
      success_url: String(params.success_url).replace('{CHECKOUT_SESSION_ID}', sessionId),
      cancel_url: params.cancel_url ?? null,
      customer: null,
      payment_intent: null,
      subscription: null,
      livemode: false,
      subscription_data_metadata: (params.subscription_data as Params | undefined)?.metadata ?? {},
    };
    sessions.set(sessionId, session);
    return session;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const find = (sessionId: string) => {
    const s = sessions.get(sessionId);
    if (!s) throw new Error(`the fake Stripe API never created ${sessionId}`);
    return s;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    created,
    sessions,
    subscriptionUpdates,
    subscriptions,
    failNext: (status) => {
      failure = status;
    },
    open: (params) => openSession(structuredClone(params)).id,
    complete(sessionId) {
      const s = find(sessionId);
      s.customer ??= id('cus');
      if (s.mode === 'subscription' && !s.subscription) {
        s.subscription = id('sub');
        subscriptions.set(s.subscription, subscriptionObject(s, 'active'));
      } else if (s.mode !== 'subscription') s.payment_intent ??= id('pi');
      Object.assign(s, { status: 'complete', payment_status: 'paid' });
      const { subscription_data_metadata: _kept, ...completed } = s;
      return structuredClone(completed);
    },
    subscription(sessionId, status) {
      const s = find(sessionId);
      if (!s.subscription) throw new Error(`${sessionId} has not started a subscription`);
      const object = subscriptionObject(s, status);
      subscriptions.set(s.subscription, object);
      return structuredClone(object);
    },
  };
}

function subscriptionObject(session: StripeObject, status: string): StripeObject {
  const now = Math.floor(Date.now() / 1000);
  return {
    id: session.subscription,
    object: 'subscription',
    customer: session.customer,
    status,
    metadata: structuredClone(session.subscription_data_metadata),
    cancel_at_period_end: false,
    canceled_at: status === 'canceled' ? now : null,
    ended_at: status === 'canceled' ? now : null,
    created: session.created,
    livemode: false,
  };
}

function amountOf(params: Params): number {
  const items = (params.line_items ?? []) as Params[];
  return items.reduce(
    (sum, item) => sum + Number((item.price_data as Params | undefined)?.unit_amount ?? 0) * Number(item.quantity ?? 1),
    0,
  );
}
