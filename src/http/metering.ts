/**
 * The order every request is judged in (DECISIONS.md section 10): a key in the URL or body
 * (400), then credentials (401), then payment or quota (402), then the body (400, or 415 for
 * another content type). Only a body over 1 MiB is refused earlier (413), before it is read.
 * A call answered 4xx or 5xx is refunded, and the X-Quota-* headers show the balance after that.
 */
import { unescape as percentDecode } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { monthOf } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { KEY_ANYWHERE } from '../keys/secret.ts';
import { X402_PRICES_USD } from '../plans.ts';
import { offers } from '../quota/offers.ts';
import type { Services } from '../services.ts';
import { INVALID_JSON, KEY_IN_BODY, parsedBody, UNSUPPORTED_MEDIA } from './body.ts';
import type { RouteMeter } from './caller.ts';
import { readCredential } from './credentials.ts';
import { hasPayment } from '../payments/x402/header.ts';
import { isStorageUnavailable } from '../store/unavailable.ts';

export function x402PriceOf(meter: RouteMeter, body: unknown): number {
  if (meter.priceKey === 'batch') return Math.round(X402_PRICES_USD.batchPerIban * meter.cost(body) * 1e6) / 1e6;
  return X402_PRICES_USD[meter.priceKey];
}

export function registerMetering(app: FastifyInstance, services: Services): void {
  const { keys, meter, clock, config } = services;

  // With the x402 rail on, every metered route is also sold per call (src/payments/x402).
  app.addHook('onRoute', (route) => {
    const routeMeter = route.config?.access?.meter;
    if (routeMeter && services.x402 && !route.config?.x402Price) {
      route.config = { ...route.config, x402Price: (req) => x402PriceOf(routeMeter, parsedBody(req.body)) };
    }
  });

  app.addHook('onRequest', async (req) => {
    req.caller = {
      network: services.networkOf(req.socket.remoteAddress, req.headers['x-forwarded-for']),
      key: null,
      balance: null,
      charge: null,
      trialUsed: null,
      paidByX402: false,
    };
    if (keyInUrl(req.url)) {
      throw new DomainError(
        'key_in_url',
        'Never put an API key in a URL: send it in the Authorization: Bearer header. This key was not used.',
      );
    }
  });

  app.addHook('preValidation', async (req, reply) => {
    const access = req.routeOptions.config.access;
    if (access) {
      if (req[KEY_IN_BODY]) {
        throw new DomainError(
          'key_in_body',
          'Never put an API key in a request body: send it in the Authorization: Bearer header. This key was not used.',
        );
      }
      if (access.auth !== 'none') await authenticate(req);
      if (access.meter) await admit(req, reply, access.meter);
    }
    // The body was left unread on the socket: close it rather than drain it.
    if (req.body === UNSUPPORTED_MEDIA) reply.header('connection', 'close');
    // A route sold only by x402 (a pack) reads no body: its payment is judged first, by the x402
    // plugin, and whatever body came with it is ignored.
    if (req.routeOptions.config.x402Required) return;
    if (req.body === UNSUPPORTED_MEDIA)
      throw new DomainError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
    if (req.body === INVALID_JSON) throw new DomainError('invalid_json', 'The body is not valid JSON.');
  });

  async function authenticate(req: FastifyRequest): Promise<void> {
    const credential = readCredential(req.headers);
    if (credential.kind === 'none') {
      if (req.routeOptions.config.access?.auth === 'key') {
        throw new DomainError(
          'missing_api_key',
          'Send your key as Authorization: Bearer <API_KEY> (or X-API-Key). Create one with POST /v1/keys/generate.',
        );
      }
      return;
    }
    const key = credential.kind === 'key' ? await keys.authenticate(credential.secret) : null;
    if (!key) throw new DomainError('invalid_api_key', 'The API key is unknown, rotated or revoked.');
    req.caller.key = key;
  }

  async function admit(req: FastifyRequest, reply: FastifyReply, routeMeter: RouteMeter): Promise<void> {
    const body = parsedBody(req.body);
    const now = clock();
    const { key } = req.caller;
    // A paid call draws on no quota; the x402 plugin verifies it next and settles it after.
    if (services.x402 && hasPayment(req.headers)) {
      req.caller.paidByX402 = true;
      return;
    }
    if (key) {
      const cost = routeMeter.cost(body);
      const admission = await meter.admitKey(key, cost);
      req.caller.balance = admission;
      if (!admission.admitted) {
        reply.header('X-Quota-Exhausted', 'true');
        const { basis, limit } = admission.plan;
        throw new DomainError(
          'quota_exhausted',
          `This key has used ${admission.used} of its ${limit} ${basis === 'monthly' ? 'monthly ' : ''}requests${cost > 1 ? ` and this call needs ${cost}` : ''}.`,
          {
            used: admission.used,
            limit,
            month: monthOf(now),
            basis,
            options: offers({
              baseUrl: config.publicUrl,
              rails: services.rails,
              now,
              x402PriceUsd: x402PriceOf(routeMeter, body),
              key: { tier: key.tier, basis },
            }),
          },
        );
      }
      req.caller.charge = { counter: admission.plan.counter, cost };
      return;
    }
    const noKeyOffers = () =>
      offers({ baseUrl: config.publicUrl, rails: services.rails, now, x402PriceUsd: x402PriceOf(routeMeter, body) });
    if (!routeMeter.trial) {
      throw new DomainError('payment_required', 'This route needs an API key or an x402 payment.', {
        cause: { reason: 'key_or_payment_required' },
        options: noKeyOffers(),
      });
    }
    const trial = await meter.admitTrial(req.caller.network);
    if (!trial.admitted) {
      const day = trial.counter.period;
      throw new DomainError(
        'payment_required',
        'The no-key trial allows 25 validations a day from one network; create a free key to go on.',
        {
          cause: { reason: 'trial_exhausted', limit: 25, day, resets_at: nextDay(day) },
          options: noKeyOffers(),
        },
      );
    }
    req.caller.trialUsed = trial.used;
    req.caller.charge = { counter: trial.counter, cost: 1 };
  }

  app.addHook('onSend', async (req, reply, payload) => {
    const caller = req.caller;
    if (!caller) return payload;
    if (caller.charge && reply.statusCode >= 400) {
      // A store that cannot write cannot refund either: the unit stays counted (the outcome
      // of the failed step is unknown), and the answer still goes out.
      const used = await meter.refund(caller.charge.counter, caller.charge.cost).catch(unlessStoreDown);
      if (caller.balance && used !== null) caller.balance = { ...caller.balance, used };
      caller.charge = null;
    }
    const key = caller.key;
    if (key && key.firstServedAt === null && caller.charge) {
      await services.store.markServed(key.id, clock());
      key.firstServedAt = clock();
    }
    // Without a store, the answer (a 503) goes out without the quota headers.
    const balance = key && (caller.balance ?? (await meter.balance(key).catch(unlessStoreDown)));
    if (balance) {
      const { limit } = balance.plan;
      reply.header('X-Quota-Used', balance.used);
      reply.header('X-Quota-Limit', limit);
      reply.header('X-Quota-Remaining', Math.max(limit - balance.used, 0));
      reply.header('X-Quota-Month', monthOf(clock()));
    }
    return payload;
  });
}

function unlessStoreDown(err: unknown): null {
  if (isStorageUnavailable(err)) return null;
  throw err;
}

/** A key-shaped value in the URL, as sent or percent-decoded (decoding only when there is a %). */
function keyInUrl(url: string): boolean {
  return KEY_ANYWHERE.test(url) || (url.includes('%') && KEY_ANYWHERE.test(percentDecode(url)));
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().replace('.000Z', 'Z');
}
