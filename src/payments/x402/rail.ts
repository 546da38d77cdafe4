/**
 * The x402 rail, framework-neutral: build the PAYMENT-REQUIRED header for a price, verify a
 * PAYMENT-SIGNATURE against that price through the facilitator, settle after the call was served.
 * Protocol work is @x402/core's x402HTTPResourceServer; this file adds the per-call price, replay
 * refusal through the store, and keeps the facilitator's own words away from the client.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  decodePaymentRequiredHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  type HTTPAdapter,
  type HTTPRequestContext,
} from '@x402/core/http';
import {
  FacilitatorResponseError,
  HTTPFacilitatorClient,
  x402HTTPResourceServer,
  x402ResourceServer,
  type FacilitatorClient,
} from '@x402/core/server';
import { type AssetAmount, type PaymentPayload, VerifyError } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import type { Clock } from '../../clock.ts';
import { isRecord } from '../../is-record.ts';
import { usdToMicros } from '../../plans.ts';
import type { X402Config } from './config.ts';
import type {
  Discovery,
  PaymentRequiredHeader,
  PaymentStore,
  Quote,
  SettleOutcome,
  VerifiedPayment,
  VerifyOutcome,
} from './types.ts';

export interface X402Rail {
  readonly config: X402Config;
  paymentRequired(quote: Quote, reason?: string): Promise<PaymentRequiredHeader | null>;
  verify(headers: IncomingHttpHeaders, quote: Quote): Promise<VerifyOutcome>;
  settle(payment: VerifiedPayment, keyId?: string | null): Promise<SettleOutcome>;
  /** The id of the payment a PAYMENT-SIGNATURE carries, read without the facilitator; null when it does not decode. */
  paymentIdOf(headers: IncomingHttpHeaders): string | null;
}

export { usdToMicros };

/** One request as x402HTTPResourceServer sees it; carries the price it was quoted. */
class QuotedRequest implements HTTPAdapter {
  constructor(
    private readonly headers: IncomingHttpHeaders,
    readonly quote: Quote,
  ) {}
  getHeader(name: string): string | undefined {
    const value = this.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }
  getMethod = () => this.quote.discovery?.method ?? 'POST';
  getPath = () => new URL(this.quote.resourceUrl).pathname;
  getUrl = () => this.quote.resourceUrl;
  // An API answers JSON, never x402's HTML paywall.
  getAcceptHeader = () => 'application/json';
  getUserAgent = () => '';
}

/** Protocol reason codes are meant for clients; any other text is facilitator internals. */
function publicReason(error: string | undefined, fallback: string): string {
  if (error === 'No matching payment requirements') return 'payment_does_not_match_price';
  return error && /^[a-z][a-z0-9_]{2,63}$/.test(error) ? error : fallback;
}

/** The signed authorization's identity: the same signature sent twice has the same id. */
function paymentId(payload: PaymentPayload): string {
  const auth = payload.payload.authorization;
  const from = typeof auth === 'object' && auth !== null && 'from' in auth ? auth.from : undefined;
  const nonce = typeof auth === 'object' && auth !== null && 'nonce' in auth ? auth.nonce : undefined;
  if (from && nonce) return `${payload.accepted.network}:${payload.accepted.asset}:${from}:${nonce}`.toLowerCase();
  return `sha256:${createHash('sha256').update(JSON.stringify(payload.payload)).digest('hex')}`;
}

/**
 * The facilitator could not be reached (docs/api.md, "x402 pay-per-call": 502
 * `facilitator_unavailable`). x402's resource server passes this kind of error on to us, where it
 * would turn any other failure of a verify into a refused payment.
 */
class FacilitatorUnreachable extends FacilitatorResponseError {}

/** Codes of a connection that was never made: the request did not reach the facilitator. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function neverSent(err: unknown): boolean {
  for (let at = err, depth = 0; isRecord(at) && depth < 5; at = at.cause, depth++) {
    if (typeof at.code === 'string' && NOT_CONNECTED.has(at.code)) return true;
    if (Array.isArray(at.errors) && at.errors.some(neverSent)) return true;
  }
  return false;
}

/**
 * The facilitator as the rail uses it: a verify that gave no verdict (no connection, no answer,
 * an answer that is not one) and a settlement that could not even be sent are the facilitator
 * being unavailable, not the payment being refused. A settlement sent but not answered may have
 * moved the money, so it stays a failed settlement.
 */
function distinguishingUnreachable(client: FacilitatorClient): FacilitatorClient {
  const unreachable = (err: unknown) =>
    Object.assign(new FacilitatorUnreachable('the x402 facilitator could not be reached'), { cause: err });
  return {
    getSupported: () => client.getSupported(),
    verify: (payload, requirements) =>
      client.verify(payload, requirements).catch((err: unknown) => {
        throw err instanceof VerifyError || err instanceof FacilitatorResponseError ? err : unreachable(err);
      }),
    settle: (payload, requirements) =>
      client.settle(payload, requirements).catch((err: unknown) => {
        throw neverSent(err) ? unreachable(err) : err;
      }),
  };
}

export interface RailDeps {
  store: PaymentStore;
  clock: Clock;
  /** Defaults to the HTTP facilitator at `config.facilitatorUrl`. */
  facilitator?: FacilitatorClient;
}

export function createX402Rail(config: X402Config, { store, clock, facilitator }: RailDeps): X402Rail {
  const priceOf = (ctx: HTTPRequestContext): AssetAmount => {
    if (!(ctx.adapter instanceof QuotedRequest)) throw new Error('x402 rail: request without a quote');
    const extra = { name: config.assetName, version: config.assetVersion };
    return { asset: config.asset, amount: String(usdToMicros(ctx.adapter.quote.priceUsd)), extra };
  };
  const server = new x402ResourceServer(
    distinguishingUnreachable(
      facilitator ?? new HTTPFacilitatorClient({ url: config.facilitatorUrl, timeoutMs: 30_000 }),
    ),
  )
    .register(config.network, new ExactEvmScheme())
    // Completes each route's bazaar declaration with the request's method and path parameters.
    .registerExtension(bazaarResourceServerExtension);
  const accepts = {
    scheme: 'exact',
    network: config.network,
    payTo: config.payTo,
    price: priceOf,
    maxTimeoutSeconds: 300,
  } as const;
  const http = new x402HTTPResourceServer(server, { accepts, mimeType: 'application/json' });
  // A described route gets its own route table, whose description and extensions x402 puts in
  // every PAYMENT-REQUIRED of that route (and expects a payment to echo unchanged).
  const described = new Map<string, x402HTTPResourceServer>();
  const httpFor = (discovery: Discovery | undefined): x402HTTPResourceServer => {
    if (!discovery) return http;
    const route = `${discovery.method} ${discovery.routeTemplate}`;
    let found = described.get(route);
    if (!found) {
      const { description, extensions } = discovery;
      found = new x402HTTPResourceServer(server, {
        [route]: { accepts, mimeType: 'application/json', description, extensions },
      });
      described.set(route, found);
    }
    return found;
  };
  // Fetches what the facilitator supports; retried on the next call if the facilitator was down.
  let ready: Promise<void> | null = null;
  const initialised = () => {
    ready ??= http.initialize().catch((err) => {
      ready = null;
      throw err;
    });
    return ready;
  };

  const processRequest = async (headers: IncomingHttpHeaders, quote: Quote) => {
    await initialised();
    const adapter = new QuotedRequest(headers, quote);
    return httpFor(quote.discovery).processHTTPRequest({
      adapter,
      path: adapter.getPath(),
      method: adapter.getMethod(),
    });
  };

  const rewrite = (headerValue: string, reason: string): PaymentRequiredHeader => {
    const required = { ...decodePaymentRequiredHeader(headerValue), error: reason };
    return {
      headerName: 'PAYMENT-REQUIRED',
      headerValue: encodePaymentRequiredHeader(required),
      requirements: required.accepts,
    };
  };

  const paymentRequired = async (quote: Quote, reason = 'payment_required') => {
    try {
      const result = await processRequest({}, quote);
      return result.type === 'payment-error' ? rewrite(result.response.headers['PAYMENT-REQUIRED'], reason) : null;
    } catch {
      // Without the facilitator there are no requirements to offer; the 402 goes out without them.
      return null;
    }
  };

  return {
    config,
    paymentRequired,

    paymentIdOf(headers) {
      const header = headers['payment-signature'];
      if (typeof header !== 'string' || header === '') return null;
      try {
        return paymentId(decodePaymentSignatureHeader(header));
      } catch {
        return null;
      }
    },

    async verify(headers, quote) {
      let result: Awaited<ReturnType<typeof processRequest>>;
      try {
        result = await processRequest(headers, quote);
      } catch {
        return { ok: false, reason: 'facilitator_unavailable', unavailable: true, paymentRequired: null };
      }
      if (result.type === 'payment-error') {
        const required = result.response.headers['PAYMENT-REQUIRED'];
        // The header was there but did not decode: x402 then treats the request as unpaid.
        const error = decodePaymentRequiredHeader(required).error;
        const reason =
          error === 'Payment required' ? 'malformed_payment' : publicReason(error, 'payment_verification_failed');
        return { ok: false, reason, unavailable: false, paymentRequired: rewrite(required, reason) };
      }
      if (result.type !== 'payment-verified') throw new Error('x402 rail: every quoted request needs payment');
      const { paymentPayload: payload, paymentRequirements: requirements } = result;
      const id = paymentId(payload);
      if (await store.hasPayment(id)) {
        return {
          ok: false,
          reason: 'payment_already_used',
          unavailable: false,
          paymentRequired: await paymentRequired(quote, 'payment_already_used'),
        };
      }
      const authorization = payload.payload.authorization;
      const from = isRecord(authorization) && typeof authorization.from === 'string' ? authorization.from : '';
      return {
        ok: true,
        payment: { id, payer: from, amountMicros: Number(requirements.amount), quote, payload, requirements },
      };
    },

    async settle(payment, keyId = null) {
      let result: Awaited<ReturnType<typeof http.processSettlement>>;
      try {
        await initialised();
        result = await http.processSettlement(payment.payload, payment.requirements);
      } catch (err) {
        // Never sent: nothing moved, and the payment is still good for a later call.
        if (err instanceof FacilitatorUnreachable)
          return { ok: false, reason: 'facilitator_unavailable', unavailable: true };
        return { ok: false, reason: 'settlement_failed' };
      }
      if (!result.success) return { ok: false, reason: publicReason(result.errorReason, 'settlement_failed') };
      const payer = result.payer ?? payment.payer;
      const header = { name: 'PAYMENT-RESPONSE' as const, value: result.headers['PAYMENT-RESPONSE'] };
      // The money has moved: a store that fails now must not cost the payer the answer. A replay
      // of the unrecorded payment is still refused, by the chain, whose nonce is spent.
      const recorded = await store
        .recordPayment({
          id: payment.id,
          network: payment.requirements.network,
          asset: payment.requirements.asset,
          payer,
          payTo: payment.requirements.payTo,
          amountMicros: payment.amountMicros,
          txHash: result.transaction,
          resourceUrl: payment.quote.resourceUrl,
          keyId,
          settledAt: clock(),
        })
        .catch((recordError: unknown) => ({ recordError }));
      const settled = {
        ok: true as const,
        header,
        payer,
        amountMicros: payment.amountMicros,
        txHash: result.transaction,
      };
      if (typeof recorded === 'object') return { ...settled, recordError: recorded.recordError };
      // A facilitator may answer a repeated settle with the first transaction: paid once, served once.
      if (!recorded) return { ok: false, reason: 'payment_already_used' };
      return settled;
    },
  };
}
