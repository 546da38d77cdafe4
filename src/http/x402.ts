/**
 * The x402 rail's two steps in a request, used by the pipeline (src/http/pipeline.ts) and, as a
 * plugin, by an app of its own. A route opts in with `config.x402Price(req)` (USD for this request).
 * - A PAYMENT-SIGNATURE is verified before validation, for exactly that price.
 * - The payment is settled only after the handler answered below 400: a failed call costs nothing.
 * - If settlement fails the handler's output is withheld and the client gets 402; if the
 *   facilitator could not be reached to settle, 502 (nothing moved, the payment stays good).
 * - Every 402 of a priced route carries PAYMENT-REQUIRED, so an x402 client pays and retries,
 *   and every 402 built here carries `options` (docs/api.md, "402 answers"), so a person can too.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { httpError, sendError } from './errors.ts';
import type { Offer } from '../payments/offers.ts';
import { x402Refused } from '../payments/refusals.ts';
import { hasPayment } from '../payments/x402/header.ts';
import type { X402Rail } from '../payments/x402/rail.ts';
import type {
  Discovery,
  PaymentRequiredHeader,
  Quote,
  SettleOutcome,
  VerifiedPayment,
} from '../payments/x402/types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The x402 price of this request in USD; a route without it is not sold by x402. */
    x402Price?: (req: FastifyRequest) => number;
    /** Refuse the route without a payment (otherwise keys and quota decide, and a 402 only offers it). */
    x402Required?: boolean;
    /** Undoes what the handler did when its payment then failed to settle. */
    x402Unsettled?: (req: FastifyRequest) => Promise<void>;
    /** Runs once the payment of the request, whose id is given, settled and was recorded. */
    x402Settled?: (req: FastifyRequest, paymentId: string) => Promise<void>;
    /**
     * Whether this request presents again, within the route's rules, a payment it already settled
     * (a pack whose answer was lost): then it is answered without being verified or settled again.
     */
    x402Recover?: (req: FastifyRequest, paymentId: string) => Promise<boolean>;
  }
  interface FastifyRequest {
    /** The verified, not yet settled, payment of this request. */
    x402Payment: VerifiedPayment | null;
  }
}

export interface X402PluginOptions {
  rail: X402Rail;
  /** Base of the resource URLs named in payment requirements. */
  publicUrl: string;
  /** The API key presented with a payment, recorded with it. */
  keyIdOf?: (req: FastifyRequest) => string | null;
  /** The `options` of a 402 refusing this request, whose x402 price is `priceUsd`. */
  optionsFor: (req: FastifyRequest, priceUsd: number) => Promise<Offer[]>;
  /** The route's discovery (description and bazaar extension), put in its PAYMENT-REQUIRED. */
  discoveryFor?: (req: FastifyRequest) => Discovery | undefined;
  /** Runs after a payment was settled and recorded, before the answer goes out. */
  onSettled?: (req: FastifyRequest, settled: Extract<SettleOutcome, { ok: true }>) => Promise<void>;
}

export interface X402Steps {
  /** Before validation: verifies a presented payment; a route that requires one is refused without. */
  judge(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** On the way out: settles a verified payment, or puts PAYMENT-REQUIRED on a priced route's 402. */
  afterAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

export function x402Steps({
  rail,
  publicUrl,
  keyIdOf,
  optionsFor,
  discoveryFor,
  onSettled,
}: X402PluginOptions): X402Steps {
  const quoteOf = (req: FastifyRequest): Quote | null => {
    const price = req.routeOptions.config.x402Price;
    if (!price) return null;
    return { priceUsd: price(req), resourceUrl: publicUrl + req.url.split('?')[0], discovery: discoveryFor?.(req) };
  };

  const refusal = async (req: FastifyRequest, reason: string, quote: Quote, unavailable = false) =>
    x402Refused(reason, unavailable ? null : await optionsFor(req, quote.priceUsd));

  const withHeader = (reply: FastifyReply, required: PaymentRequiredHeader | null) => {
    if (required) reply.header(required.headerName, required.headerValue);
    return reply;
  };

  // Neither step may turn the answer into a 500. After a settlement the money has moved, so the
  // payer must still get what they paid for (a pack's key); after a failed one they get the 402.
  // A failure is logged with what an operator needs to put it right by hand.
  const logged = async (req: FastifyRequest, what: string, context: object, run: () => Promise<void> | undefined) => {
    try {
      await run();
    } catch (err) {
      req.log.error({ err, url: req.url, ...context }, `x402: ${what} failed`);
    }
  };

  return {
    async judge(req, reply) {
      const quote = quoteOf(req);
      if (!quote) return;
      if (!hasPayment(req.headers)) {
        if (!req.routeOptions.config.x402Required) return;
        withHeader(reply, await rail.paymentRequired(quote));
        return sendError(req, reply, await refusal(req, 'payment_required', quote));
      }
      const recover = req.routeOptions.config.x402Recover;
      const presented = recover ? rail.paymentIdOf(req.headers) : null;
      if (recover && presented !== null && (await recover(req, presented))) return;
      const verified = await rail.verify(req.headers, quote);
      if (verified.ok) {
        req.x402Payment = verified.payment;
        return;
      }
      withHeader(reply, verified.paymentRequired);
      return sendError(req, reply, await refusal(req, verified.reason, quote, verified.unavailable));
    },

    async afterAnswer(req, reply, payload) {
      const payment = req.x402Payment;
      if (!payment) {
        const quote = reply.statusCode === 402 && !reply.hasHeader('payment-required') ? quoteOf(req) : null;
        if (quote) withHeader(reply, await rail.paymentRequired(quote));
        return payload;
      }
      req.x402Payment = null;
      if (reply.statusCode >= 400) return payload;
      const settled = await rail.settle(payment, keyIdOf?.(req) ?? null);
      if (settled.ok) {
        reply.header(settled.header.name, settled.header.value);
        if (settled.recordError)
          req.log.error(
            { err: settled.recordError, txHash: settled.txHash, payer: settled.payer },
            'x402: a settled payment could not be recorded',
          );
        const context = { txHash: settled.txHash, payer: settled.payer };
        await logged(req, 'the step after settlement', context, () => onSettled?.(req, settled));
        await logged(req, "the route's step after settlement", context, () =>
          req.routeOptions.config.x402Settled?.(req, payment.id),
        );
        return payload;
      }
      await logged(req, 'undoing an unsettled call', {}, () => req.routeOptions.config.x402Unsettled?.(req));
      const failure = await refusal(req, settled.reason, payment.quote, settled.unavailable);
      req.failure = failure;
      if (!settled.unavailable) withHeader(reply, await rail.paymentRequired(payment.quote, settled.reason));
      const { status, body } = httpError(failure.code, failure.message, failure.details);
      reply.code(status).removeHeader('content-length').header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(body);
    },
  };
}

const x402: FastifyPluginAsync<X402PluginOptions> = async (app, options) => {
  const steps = x402Steps(options);
  app.decorateRequest('x402Payment', null);
  app.addHook('preValidation', steps.judge);
  app.addHook('onSend', steps.afterAnswer);
};

export const x402Plugin = fp(x402, { name: 'mod97-x402', fastify: '5.x' });
