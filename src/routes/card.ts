/** Card payments (Stripe): POST /v1/card/checkout, POST /v1/card/webhook, GET /v1/card/success. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import { logFailure, sendError, toHttpError } from '../http/errors.ts';
import { BUYER_COOKIE, BUYER_COOKIE_SECONDS, cookieOf, REVEAL_COOKIE } from '../payments/stripe/reveal-cookie.ts';
import type { SuccessAnswer } from '../payments/stripe/success.ts';
import type { Services } from '../services.ts';
import { cancelRoute, checkoutRoute, successRoute, webhookRoute } from '../api/payments.ts';
import { served } from './serve.ts';
import { sendPage } from '../web/render.ts';
import { requiredKey } from '../http/caller.ts';

/** The success page is a page of the site: same layout and headers. */
const pageBase = { path: successRoute.url, page: 'checkout', title: 'Checkout' };

export const cardRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const rail = () => {
      if (services.card) return services.card;
      throw new DomainError(
        'card_payments_unavailable',
        'Card payments are not turned on for this server (STRIPE_SECRET_KEY is not set). Free keys and the other rails work as usual.',
      );
    };
    app.addHook('onRequest', async () => {
      rail();
    });

    app.route({
      ...served(checkoutRoute),
      handler: async (req, reply) => {
        const { product } = req.body;
        const { answer, buyerToken } = await rail().checkout(product, req.caller.key);
        if (buyerToken) reply.header('Set-Cookie', cookie(req, BUYER_COOKIE, buyerToken, BUYER_COOKIE_SECONDS));
        reply.code(201);
        return answer;
      },
    });

    app.route({
      ...served(cancelRoute),
      handler: async (req) => rail().cancel(requiredKey(req.caller)),
    });

    app.route({
      ...served(successRoute),
      handler: async (req, reply) => {
        // The answer may hold a secret shown once: no cache may keep it, no referer may carry the session id.
        reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
        // A prefetch (link preview, speculative load) is declined: a browser uses no non-2xx
        // prefetch and loads the page for real when the buyer opens it.
        if (isPrefetch(req)) {
          const declined = 'This page shows a bought key once and is not served to prefetches. Open it to see the key.';
          return sendError(req, reply, new DomainError('unavailable', declined));
        }
        const html = wantsHtml(req);
        let answer: SuccessAnswer;
        try {
          // HEAD looks without using up the one-time display
          answer = await rail().outcome(req.query.session_id, {
            consume: req.method === 'GET',
            cookie: cookieOf(REVEAL_COOKIE, req.headers.cookie),
            buyerToken: cookieOf(BUYER_COOKIE, req.headers.cookie),
          });
        } catch (err) {
          if (!html) throw err;
          const { status, body } = toHttpError(err);
          if (status >= 500) logFailure(req, err, status);
          // The typed reply lists only the success statuses; errors are shaped by toHttpError.
          reply.code(status as 200);
          return sendPage(reply, 'checkout', { ...pageBase, heading: 'Checkout', message: body.message });
        }
        const { outcome, setCookie } = answer;
        if (setCookie) reply.header('Set-Cookie', cookie(req, REVEAL_COOKIE, setCookie.value, setCookie.maxAgeSeconds));
        if (outcome.status === 'pending') reply.code(202).header('Retry-After', '3');
        if (!html) return outcome;
        if (outcome.status === 'pending') {
          return sendPage(reply, 'checkout', {
            ...pageBase,
            heading: 'Confirming your payment',
            message: outcome.message,
            pending: true,
          });
        }
        return sendPage(reply, 'checkout', {
          ...pageBase,
          heading: 'Thank you: payment received',
          message: outcome.message,
          apiKey: outcome.api_key,
          keyPrefix: outcome.key_prefix,
          tier: outcome.tier,
          basis: outcome.basis,
          limit: outcome.limit.toLocaleString('en-US'),
        });
      },
    });

    // Stripe signs the exact bytes it sent: this scope keeps the body as a Buffer, unparsed.
    await app.register(async (raw) => {
      raw.removeContentTypeParser('application/json');
      raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      raw.route({
        ...served(webhookRoute),
        handler: async (req) => {
          const signature = req.headers['stripe-signature'];
          return rail().webhook(
            Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
            typeof signature === 'string' ? signature : undefined,
          );
        },
      });
    });
  };

/** A cookie only the success page is sent, never readable by a script. */
function cookie(req: FastifyRequest, name: string, value: string, maxAgeSeconds: number): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `${name}=${value}; Path=${successRoute.url}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** `Sec-Purpose: prefetch` (Fetch standard) or the older `Purpose: prefetch` / `X-Purpose: preview`. */
function isPrefetch(req: FastifyRequest): boolean {
  const purpose = [req.headers['sec-purpose'], req.headers.purpose, req.headers['x-purpose'], req.headers['x-moz']]
    .filter((v): v is string => typeof v === 'string')
    .join(',');
  return /\b(prefetch|preview)\b/i.test(purpose);
}

function wantsHtml(req: FastifyRequest): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}
