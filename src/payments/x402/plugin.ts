/**
 * The x402 rail on Fastify. A route opts in with `config.x402Price(req)` (USD for this request).
 * - A PAYMENT-SIGNATURE is verified before validation, for exactly that price.
 * - The payment is settled only after the handler answered below 400: a failed call costs nothing.
 * - If settlement fails the handler's output is withheld and the client gets 402.
 * - Every 402 of a priced route carries PAYMENT-REQUIRED, so an x402 client pays and retries.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasPayment, type X402Rail } from './rail.ts';
import type { PaymentRequiredHeader, Quote, SettleOutcome, VerifiedPayment } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The x402 price of this request in USD; a route without it is not sold by x402. */
    x402Price?: (req: FastifyRequest) => number;
    /** Refuse the route without a payment (otherwise keys and quota decide, and a 402 only offers it). */
    x402Required?: boolean;
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
  /** Runs after a payment was settled and recorded, before the answer goes out. */
  onSettled?: (req: FastifyRequest, settled: Extract<SettleOutcome, { ok: true }>) => Promise<void>;
}

const MESSAGES: Record<string, string> = {
  payment_required: 'This call is paid per call with x402: sign the payment in the PAYMENT-REQUIRED header and retry.',
  payment_already_used: 'This payment was already used; sign a new one.',
  settlement_failed: 'The payment could not be settled, so the result is withheld. Sign a new payment and retry.',
};

const x402: FastifyPluginAsync<X402PluginOptions> = async (app, { rail, publicUrl, keyIdOf, onSettled }) => {
  app.decorateRequest('x402Payment', null);

  const quoteOf = (req: FastifyRequest): Quote | null => {
    const price = req.routeOptions.config.x402Price;
    return price ? { priceUsd: price(req), resourceUrl: publicUrl + req.url.split('?')[0] } : null;
  };

  const refuse = (reply: FastifyReply, status: number, reason: string, required: PaymentRequiredHeader | null) => {
    if (required) reply.header(required.headerName, required.headerValue);
    const message = MESSAGES[reason] ?? (status === 402 ? 'The payment was refused.' : 'Payments are unavailable; try again later.');
    return { error: status === 402 ? 'payment_required' : 'payments_unavailable', message, cause: { reason } };
  };

  app.addHook('preValidation', async (req, reply) => {
    const quote = quoteOf(req);
    if (!quote) return;
    if (!hasPayment(req.headers)) {
      if (req.routeOptions.config.x402Required) {
        return reply.code(402).send(refuse(reply, 402, 'payment_required', await rail.paymentRequired(quote)));
      }
      return;
    }
    const verified = await rail.verify(req.headers, quote);
    if (verified.ok) {
      req.x402Payment = verified.payment;
      return;
    }
    const status = verified.unavailable ? 502 : 402;
    return reply.code(status).send(refuse(reply, status, verified.reason, verified.paymentRequired));
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
      await onSettled?.(req, settled);
      return payload;
    }
    reply.code(402).removeHeader('content-length').header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify(refuse(reply, 402, settled.reason, await rail.paymentRequired(payment.quote, settled.reason)));
  });
};

export const x402Plugin = fp(x402, { name: 'mod97-x402', fastify: '5.x' });
