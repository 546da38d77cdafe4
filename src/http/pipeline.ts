/**
 * The one request pipeline. Every request, whether it comes over HTTP or is an MCP tool call
 * run through `app.inject`, is judged here, in this order (docs/api.md, "Order of checks"):
 *
 *   0. a body over 1 MiB is refused before it is read (413, in body.ts); any other body is
 *      parsed but not judged yet;
 *   (before all of these, at the socket: header and body deadlines, header-line limits, HEAD on
 *    a metered route and what Node's parser refuses: server-limits.ts)
 *   1. a key-shaped value in the URL (400 key_in_url); then a browser's cross-site call to a
 *      key route (403 cross_site_request, cross-site.ts);
 *   2. a key-shaped value in the body (400 key_in_body);
 *   3. credentials (401 missing_api_key / invalid_api_key);
 *  3a. on a route that declares it (every metered POST), an Idempotency-Key (idempotency.ts): ill-formed (400), held by another
 *      request (422 idempotency_key_reused) or by one still being answered (409
 *      idempotency_in_progress), or already answered: that answer again, before any charge;
 *   4. payment or quota (402): a call carrying an x402 payment draws no quota; otherwise the
 *      key's quota, or the no-key trial, is admitted for the call's whole cost;
 *   5. the body: another content type (415), then JSON that does not parse or nests deeper
 *      than 64 levels (400; the depth is found by a byte scan, before any parse). A route sold
 *      only by x402 (a pack) reads no body and skips this;
 *   6. a presented x402 payment is verified for this call's price (402), now that the body that
 *      sets the price of a batch is known to be JSON; a pack without a payment is refused here;
 *   7. the route's schema (400 invalid_request; Fastify's validation), then the handler.
 *
 * And on the way out:
 *   8. a call answered 4xx or 5xx is refunded whatever it was charged;
 *   9. the X-Quota-* and RateLimit-* headers show the key's (or the trial's) balance after that,
 *      and a 429 says when to retry (Retry-After);
 *  10. an answer carrying a key secret is marked Cache-Control: no-store (no-store.ts);
 *  11. a verified payment is settled (a failure withholds the answer: 402), and any 402 of a
 *      route sold by x402 carries PAYMENT-REQUIRED;
 *  11a. with the status now final, a 2xx answer to a call with an Idempotency-Key is kept for its
 *      retries (never one carrying a key secret); any other frees the key (idempotency.ts);
 *  12. after the answer is sent, a charged call counts toward the day's statistics (the usage
 *      chart, quota/daily.ts): never on the request's path, never billing.
 */
import { unescape as percentDecode } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { monthOf } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { KEY_ANYWHERE } from '../keys/secret.ts';
import type { KeyService } from '../keys/service.ts';
import { keyOrPaymentRequired, quotaExhausted, trialExhausted } from '../payments/refusals.ts';
import { hasPayment } from '../payments/x402/header.ts';
import type { Admission, Balance } from '../quota/meter.ts';
import type { DailyUsage } from '../quota/daily.ts';
import { isStorageUnavailable } from '../store/unavailable.ts';
import type { KeyRow } from '../records.ts';
import {
  INVALID_JSON,
  KEY_IN_BODY,
  MAX_JSON_DEPTH,
  parsedBody,
  registerJsonBody,
  TOO_DEEP,
  UNSUPPORTED_MEDIA,
} from './body.ts';
import type { RouteMeter } from '../api/declaration.ts';
import type { Caller } from './caller.ts';
import { CREDENTIAL_MESSAGES, readCredential } from './credentials.ts';
import { crossSiteGuard } from './cross-site.ts';
import { idempotencySteps } from './idempotency.ts';
import { mayAnswerSecret, noStoreIfSecret } from './no-store.ts';
import { type PaymentServices, refusalContext, x402PriceOf, x402StepsFor } from './payment-gate.ts';
import { secondsUntilNextDay, setKeyRateLimit, setTrialRateLimit } from './rate-headers.ts';

/** What the pipeline uses of the services (src/services.ts wires them; the edge does not import the wiring). */
export interface PipelineServices extends PaymentServices {
  keys: KeyService;
  daily: DailyUsage;
  networkOf: (peer: string | undefined, forwardedFor: string | string[] | undefined) => string;
}

export async function registerPipeline(app: FastifyInstance, services: PipelineServices): Promise<void> {
  const { keys, meter, clock } = services;
  const x402 = await x402StepsFor(services);
  const crossSiteRefusal = crossSiteGuard(services.config.publicUrl);
  const idempotency = idempotencySteps(services.store, clock, (idempotencyKey) => keys.hash(idempotencyKey));
  app.decorateRequest('caller', null, []);
  app.decorateRequest('x402Payment', null);
  app.decorateRequest('failure', null);
  registerJsonBody(app);

  // With the x402 rail on, every metered route is also sold per call (step 6).
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, mayAnswerSecret: mayAnswerSecret(route) }; // 10
    const routeMeter = route.config?.access?.meter;
    if (routeMeter && x402 && !route.config?.x402Price) {
      route.config = { ...route.config, x402Price: (req) => x402PriceOf(routeMeter, parsedBody(req.body)) };
    }
  });

  // Hooks with nothing to wait for take `done` rather than being async: on the path of every
  // request, each promise a hook or step makes shows in the profile.
  app.addHook('onRequest', (req, _reply, done) => {
    req.caller = newCaller(services.networkOf(req.socket.remoteAddress, req.headers['x-forwarded-for']));
    if (keyInUrl(req.url)) return done(keyInUrlError()); // 1
    done(crossSiteRefusal(req) ?? undefined);
  });

  app.addHook('preValidation', async (req, reply) => {
    const { access, x402Required, idempotent } = req.routeOptions.config;
    if (access) {
      if (req[KEY_IN_BODY]) throw keyInBodyError(); // 2
      // Most calls send no Idempotency-Key: they skip step 3a without awaiting it.
      const keyed = idempotent && req.headers['idempotency-key'] !== undefined;
      // When nothing between steps 3 and 4 may stop the call (no step 3a, no payment), a key is
      // charged with its lookup: one store call for both (Meter.authenticateAndAdmit).
      const chargedMeter = keyed || (x402 && hasPayment(req.headers)) ? undefined : access.meter;
      const admission = access.auth !== 'none' ? await authenticate(req, chargedMeter) : undefined; // 3
      if (keyed && (await idempotency.judge(req, reply))) return reply; // 3a
      if (access.meter) await payOrAdmit(req, reply, access.meter, admission); // 4
    }
    // The body was left unread on the socket: close it rather than drain it.
    if (req.body === UNSUPPORTED_MEDIA) reply.header('connection', 'close');
    if (!x402Required) refuseUnreadableBody(req.body); // 5
    return x402?.judge(req, reply); // 6
  });

  app.addHook('onSend', (req, reply, payload, done) => {
    // Every 429 refuses a per-UTC-day limit, which lifts at the next day.
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after'))
      reply.header('Retry-After', secondsUntilNextDay(clock()));
    const stored = req.caller ? callerSteps(req.caller, reply) : undefined; // 8, 9
    const finish = () => {
      if (req.routeOptions.config.mayAnswerSecret !== false) noStoreIfSecret(reply, payload); // 10
      return x402 ? x402.afterAnswer(req, reply, payload) : payload; // 11
    };
    const keep = async (sent: unknown) => {
      await idempotency.settle(req, reply, sent); // 11a
      return sent;
    };
    if (!stored && !x402 && !req.headers['idempotency-key']) return done(null, finish());
    (stored ?? Promise.resolve())
      .then(finish)
      .then(keep)
      .then((sent) => done(null, sent), done);
  });

  app.addHook('onResponse', (req, _reply, done) => {
    const caller = req.caller;
    if (caller?.key && caller.charge) services.daily.add(caller.key.id, caller.charge.cost); // 12
    done();
  });
  app.addHook('onClose', () => services.daily.flush());

  /** Step 3, and with `routeMeter` the key's admission of step 4 where the store does both at once. */
  async function authenticate(req: FastifyRequest, routeMeter?: RouteMeter): Promise<Admission | undefined> {
    const credential = readCredential(req.headers);
    if (credential.kind === 'none') {
      if (req.routeOptions.config.access?.auth === 'key') {
        throw new DomainError(
          'missing_api_key',
          'Send your key as Authorization: Bearer <API_KEY> (or X-API-Key). Create one with POST /v1/keys/generate.',
        );
      }
      return undefined;
    }
    if (credential.kind === 'refused') throw new DomainError('invalid_api_key', credential.message);
    const hash = keys.presentedHash(credential.secret);
    const { key, admission } =
      hash === null ? { key: null } : await meter.authenticateAndAdmit(hash, routeMeter?.cost(parsedBody(req.body)));
    if (!key) throw new DomainError('invalid_api_key', CREDENTIAL_MESSAGES.unknown);
    req.caller.key = key;
    return admission;
  }

  /** `admitted`: the key's admission, when step 3 made it with the lookup. */
  async function payOrAdmit(
    req: FastifyRequest,
    reply: FastifyReply,
    routeMeter: RouteMeter,
    admitted: Admission | undefined,
  ): Promise<void> {
    // A paid call draws on no quota; its payment is verified in step 6 and settled in step 10.
    if (x402 && hasPayment(req.headers)) {
      req.caller.paidByX402 = true;
      return;
    }
    const body = parsedBody(req.body);
    const { caller } = req;
    if (caller.key) {
      const cost = routeMeter.cost(body);
      const admission = admitted ?? (await meter.admitKey(caller.key, cost));
      caller.balance = admission;
      if (!admission.admitted) {
        reply.header('X-Quota-Exhausted', 'true');
        throw quotaExhausted(refusalContext(services, routeMeter, body), caller.key, admission, cost);
      }
      caller.charge = { counter: admission.plan.counter, cost };
      return;
    }
    if (!routeMeter.trial) throw keyOrPaymentRequired(refusalContext(services, routeMeter, body));
    const trial = await meter.admitTrial(caller.network);
    if (!trial.admitted) {
      setTrialRateLimit(reply, trial.used, clock());
      throw trialExhausted(refusalContext(services, routeMeter, body), trial.counter.period);
    }
    caller.trialUsed = trial.used;
    caller.charge = { counter: trial.counter, cost: 1 };
  }

  /**
   * Steps 8 and 9, in order: a refund, the first-served mark, then the quota headers. A promise
   * only when the store must be asked; the usual answer (charged, kept, balance known) asks none.
   */
  function callerSteps(caller: Caller, reply: FastifyReply): Promise<void> | undefined {
    const refund = refundDue(caller, reply.statusCode);
    const firstServed = firstServedDue(caller);
    if (!refund && !firstServed && (!caller.key || caller.balance)) {
      if (caller.key && caller.balance) setQuotaHeaders(caller.balance, reply);
      else if (caller.trialUsed !== null) setTrialRateLimit(reply, caller.trialUsed, clock());
      return undefined;
    }
    return (async () => {
      if (refund) await refundRefused(caller);
      if (firstServed) await markFirstServed(caller);
      if (caller.key) await quotaHeaders(caller, caller.key, reply);
      else if (caller.trialUsed !== null) setTrialRateLimit(reply, caller.trialUsed, clock());
    })();
  }

  const refundDue = (caller: Caller, status: number) => caller.charge !== null && status >= 400;

  async function refundRefused(caller: Caller): Promise<void> {
    const charge = caller.charge;
    if (!charge) return; // never: refundDue asked for a charge
    // A store that cannot write cannot refund either: the unit stays counted (the outcome of
    // the failed step is unknown), and the answer still goes out.
    const used = await meter.refund(charge.counter, charge.cost).catch(unlessStoreDown);
    if (caller.balance && used !== null) caller.balance = { ...caller.balance, used };
    if (!caller.key && caller.trialUsed !== null && used !== null) caller.trialUsed = used;
    caller.charge = null;
  }

  /** A key's first charged call that stood makes it claimable (docs/api.md, "Claiming a key"). */
  const firstServedDue = (caller: Caller) =>
    caller.key !== null && caller.key.firstServedAt === null && caller.charge !== null;

  async function markFirstServed(caller: Caller): Promise<void> {
    // A refund in step 8 took the charge back: the call did not stand.
    // (firstServedDue asked for a key)
    const { charge, key } = caller;
    if (!charge || !key) return;
    await services.store.markServed(key.id, clock());
    key.firstServedAt = clock();
  }

  async function quotaHeaders(caller: Caller, key: KeyRow, reply: FastifyReply): Promise<void> {
    // Without a store, the answer (a 503) goes out without the quota headers.
    const balance = caller.balance ?? (await meter.balance(key).catch(unlessStoreDown));
    if (balance) setQuotaHeaders(balance, reply);
  }

  function setQuotaHeaders(balance: Balance, reply: FastifyReply): void {
    const { limit } = balance.plan;
    reply.header('X-Quota-Used', balance.used);
    reply.header('X-Quota-Limit', limit);
    reply.header('X-Quota-Remaining', Math.max(limit - balance.used, 0));
    reply.header('X-Quota-Month', monthOf(clock()));
    setKeyRateLimit(reply, balance.plan.basis, limit, balance.used, clock());
  }
}

function unlessStoreDown(err: unknown): null {
  if (isStorageUnavailable(err)) return null;
  throw err;
}

const newCaller = (network: string): Caller => ({
  network,
  key: null,
  balance: null,
  charge: null,
  trialUsed: null,
  paidByX402: false,
});

/** A key-shaped value in the URL, as sent or percent-decoded (decoding only when there is a %). */
function keyInUrl(url: string): boolean {
  return KEY_ANYWHERE.test(url) || (url.includes('%') && KEY_ANYWHERE.test(percentDecode(url)));
}

const keyInUrlError = () =>
  new DomainError(
    'key_in_url',
    'Never put an API key in a URL: send it in the Authorization: Bearer header. This key was not used.',
  );

const keyInBodyError = () =>
  new DomainError(
    'key_in_body',
    'Never put an API key in a request body: send it in the Authorization: Bearer header. This key was not used.',
  );

function refuseUnreadableBody(body: unknown): void {
  if (body === UNSUPPORTED_MEDIA)
    throw new DomainError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
  if (body === INVALID_JSON) throw new DomainError('invalid_json', 'The body is not valid JSON.');
  if (body === TOO_DEEP)
    throw new DomainError(
      'invalid_json',
      `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels; no request needs that many. It was not parsed.`,
    );
}
