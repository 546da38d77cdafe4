/**
 * The x402 rail on Fastify. A route opts in with `config.x402Price(req)` (USD for this request).
 * - A PAYMENT-SIGNATURE is verified before validation, for exactly that price.
 * - The payment is settled only after the handler answered below 400: a failed call costs nothing.
 * - If settlement fails the handler's output is withheld and the client gets 402.
 * - Every 402 of a priced route carries PAYMENT-REQUIRED, so an x402 client pays and retries,
 *   and every 402 built here carries `options` (DECISIONS.md section 5), so a person can too.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Offer } from '../../quota/offers.ts';
import { hasPayment } from './header.ts';
import type { X402Rail } from './rail.ts';
import type { Discovery, PaymentRequiredHeader, Quote, SettleOutcome, VerifiedPayment } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The x402 price of this request in USD; a route without it is not sold by x402. */
    x402Price?: (req: FastifyRequest) => number;
    /** Refuse the route without a payment (otherwise keys and quota decide, and a 402 only offers it). */
    x402Required?: boolean;
    /** Undoes what the handler did when its payment then failed to settle. */
    x402Unsettled?: (req: FastifyRequest) => Promise<void>;
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

const MESSAGES: Record<string, string> = {
  payment_required: 'This call is paid per call with x402: sign the payment in the PAYMENT-REQUIRED header and retry.',
  payment_already_used: 'This payment was already used; sign a new one.',
  malformed_payment:
    'PAYMENT-SIGNATURE is not a decodable x402 payment: send base64 JSON of a payment for the PAYMENT-REQUIRED offer.',
  settlement_failed: 'The payment could not be settled, so the result is withheld. Sign a new payment and retry.',
};

const x402: FastifyPluginAsync<X402PluginOptions> = async (
  app,
  { rail, publicUrl, keyIdOf, optionsFor, discoveryFor, onSettled },
) => {
  app.decorateRequest('x402Payment', null);

  const quoteOf = (req: FastifyRequest): Quote | null => {
    const price = req.routeOptions.config.x402Price;
    if (!price) return null;
    return { priceUsd: price(req), resourceUrl: publicUrl + req.url.split('?')[0], discovery: discoveryFor?.(req) };
  };

  const refuse = async (
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    reason: string,
    quote: Quote,
    required: PaymentRequiredHeader | null,
  ) => {
    if (required) reply.header(required.headerName, required.headerValue);
    if (status >= 500)
      return {
        error: 'payments_unavailable',
        message: 'Payments are unavailable; try again later.',
        cause: { reason },
      };
    const message = MESSAGES[reason] ?? 'The payment was refused.';
    const error = status === 400 ? 'invalid_payment' : 'payment_required';
    return { error, message, cause: { reason }, options: await optionsFor(req, quote.priceUsd) };
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

  app.addHook('preValidation', async (req, reply) => {
    const quote = quoteOf(req);
    if (!quote) return;
    if (!hasPayment(req.headers)) {
      if (req.routeOptions.config.x402Required) {
        return reply
          .code(402)
          .send(await refuse(req, reply, 402, 'payment_required', quote, await rail.paymentRequired(quote)));
      }
      return;
    }
    const verified = await rail.verify(req.headers, quote);
    if (verified.ok) {
      req.x402Payment = verified.payment;
      return;
    }
    // x402's HTTP transport: a payload that does not decode is 400, a refused payment 402.
    const status = verified.unavailable ? 502 : verified.reason === 'malformed_payment' ? 400 : 402;
    return reply.code(status).send(await refuse(req, reply, status, verified.reason, quote, verified.paymentRequired));
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const payment = req.x402Payment;
    if (!payment) {
      const quote = reply.statusCode === 402 && !reply.hasHeader('payment-required') ? quoteOf(req) : null;
      const required = quote && (await rail.paymentRequired(quote));
      if (required) reply.header(required.headerName, required.headerValue);
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
      await logged(req, 'the step after settlement', { txHash: settled.txHash, payer: settled.payer }, () =>
        onSettled?.(req, settled),
      );
      return payload;
    }
    await logged(req, 'undoing an unsettled call', {}, () => req.routeOptions.config.x402Unsettled?.(req));
    reply.code(402).removeHeader('content-length').header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify(
      await refuse(
        req,
        reply,
        402,
        settled.reason,
        payment.quote,
        await rail.paymentRequired(payment.quote, settled.reason),
      ),
    );
  });
};

export const x402Plugin = fp(x402, { name: 'mod97-x402', fastify: '5.x' });
