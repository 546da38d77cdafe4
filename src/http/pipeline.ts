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
 *   3. credentials (401 missing_api_key / invalid_api_key), judged on every route, also one that
 *      needs no key (credentials.ts, charge-steps.ts);
 *  3a. on a route that declares it (every metered POST, and the packs), an Idempotency-Key (idempotency.ts): ill-formed (400), held by another
 *      request (422 idempotency_key_reused) or by one still being answered (409
 *      idempotency_in_progress), or already answered: that answer again, before any charge;
 *   4. payment or quota (402): a call carrying an x402 payment draws no quota; otherwise the
 *      key's quota, or the no-key trial, is admitted for the call's whole cost;
 *   5. the body: another content type (415), then JSON that does not parse or nests deeper
 *      than 64 levels (400; the depth is found by a byte scan, before any parse). A route sold
 *      only by x402 (a pack) reads no body and skips this;
 *   6. a presented x402 payment is verified for this call's price (402), now that the body that
 *      sets the price of a batch is known to be JSON; a pack without a payment is refused here,
 *      and a pack sent again to recover its lost answer is recognised here, unverified;
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
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { DomainError } from '../errors.ts';
import { KEY_ANYWHERE } from '../keys/secret.ts';
import type { KeyService } from '../keys/service.ts';
import type { DailyUsage } from '../quota/daily.ts';
import { balanceSteps } from './balance-steps.ts';
import {
  INVALID_JSON,
  NOT_UTF8,
  KEY_IN_BODY,
  MAX_JSON_DEPTH,
  parsedBody,
  registerJsonBody,
  TOO_DEEP,
  UNSUPPORTED_MEDIA,
} from './body.ts';
import type { Caller } from './caller.ts';
import { chargeSteps } from './charge-steps.ts';
import { crossSiteGuard } from './cross-site.ts';
import type { NetworkResolver } from './network.ts';
import { idempotencySteps } from './idempotency.ts';
import { mayAnswerSecret, noStoreIfSecret } from './no-store.ts';
import { type PaymentServices, x402PriceOf, x402StepsFor } from './payment-gate.ts';
import { secondsUntilNextDay } from './rate-headers.ts';

/** What the pipeline uses of the services (src/services.ts wires them; the edge does not import the wiring). */
export interface PipelineServices extends PaymentServices {
  keys: KeyService;
  daily: DailyUsage;
  networkOf: NetworkResolver;
}

/**
 * Wires the steps above to Fastify's hooks, in the order they run. The hooks with nothing to
 * wait for on the usual path (`onRequest`, `onSend`) take `done` rather than being async: on the
 * path of every request, each promise a hook makes shows in the profile.
 */
export async function registerPipeline(app: FastifyInstance, services: PipelineServices): Promise<void> {
  const { clock } = services;
  const x402 = await x402StepsFor(services);
  const crossSiteRefusal = crossSiteGuard(services.config.publicUrl);
  const charge = chargeSteps(services, x402 !== null);
  const settleBalance = balanceSteps(services);
  const idempotency = idempotencySteps(services.store, clock, (idempotencyKey) => services.keys.hash(idempotencyKey));
  app.decorateRequest('caller', null, []);
  app.decorateRequest('x402Payment', null);
  app.decorateRequest('failure', null);
  registerJsonBody(app); // 0

  app.addHook('onRoute', declareRoute);
  app.addHook('onRequest', screenRequest); // 1
  app.addHook('preValidation', judgeRequest); // 2 to 6; the handler is 7
  app.addHook('onSend', wayOut); // 8 to 11a
  app.addHook('onResponse', countForStatistics); // 12
  app.addHook('onClose', () => services.daily.flush());

  /** What each route needs known before any request: may it answer a secret (10), its x402 price (6). */
  function declareRoute(route: RouteOptions): void {
    route.config = { ...route.config, mayAnswerSecret: mayAnswerSecret(route) };
    // With the x402 rail on, every metered route is also sold per call.
    const routeMeter = route.config?.access?.meter;
    if (routeMeter && x402 && !route.config?.x402Price) {
      route.config = { ...route.config, x402Price: (req) => x402PriceOf(routeMeter, parsedBody(req.body)) };
    }
  }

  /** Step 1: who is calling from where, and what no request may carry in its URL or across sites. */
  function screenRequest(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    req.caller = newCaller(services.networkOf(req.socket.remoteAddress, req.headers['x-forwarded-for'], req.socket));
    done(keyInUrl(req.url) ? keyInUrlError() : (crossSiteRefusal(req) ?? undefined));
  }

  /** Steps 2 to 6: the body's key check, credentials, Idempotency-Key, payment or quota, the body, x402. */
  async function judgeRequest(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const { access, x402Required, idempotent } = req.routeOptions.config;
    if (access) {
      if (req[KEY_IN_BODY]) throw keyInBodyError(); // 2
      // Most calls send no Idempotency-Key: they skip step 3a without awaiting it.
      const keyed = idempotent === true && req.headers['idempotency-key'] !== undefined;
      const chargeNow = access.meter && charge.chargesWithLookup(req, keyed) ? access.meter : undefined;
      const admitted = await charge.authenticate(req, chargeNow); // 3
      const replay = keyed ? await idempotency.judge(req) : null; // 3a
      if (replay) {
        if (access.meter) await charge.showTrialBalance(req, access.meter);
        return idempotency.replay(reply, replay);
      }
      if (access.meter) await charge.payOrAdmit(req, reply, access.meter, admitted); // 4
    }
    // The body was left unread on the socket: close it rather than drain it.
    if (req.body === UNSUPPORTED_MEDIA) reply.header('connection', 'close');
    if (!x402Required) refuseUnreadableBody(req.body); // 5
    return x402?.judge(req, reply); // 6
  }

  /** Steps 8 to 11a, in order, on the answer's way out. */
  function wayOut(
    req: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload?: unknown) => void,
  ): void {
    // Every 429 refuses a per-UTC-day limit, which lifts at the next day.
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after'))
      reply.header('Retry-After', secondsUntilNextDay(clock()));
    const balanceSettled = req.caller ? settleBalance(req.caller, reply) : undefined; // 8, 9
    const lastSteps = () => {
      if (req.routeOptions.config.mayAnswerSecret !== false) noStoreIfSecret(reply, payload); // 10
      return x402 ? x402.afterAnswer(req, reply, payload) : payload; // 11
    };
    // The usual answer waits for nothing: no store call, no payment, no Idempotency-Key.
    if (!balanceSettled && !x402 && !idempotency.holds(req)) {
      done(null, lastSteps());
      return;
    }
    (balanceSettled ?? Promise.resolve())
      .then(lastSteps)
      .then((sent) => keepForRetries(req, reply, sent))
      .then((sent) => done(null, sent), done);
  }

  /** Step 11a: with the status final, the answer is kept for the retries of its Idempotency-Key. */
  async function keepForRetries(req: FastifyRequest, reply: FastifyReply, sent: unknown): Promise<unknown> {
    await idempotency.settle(req, reply, sent);
    return sent;
  }

  /** Step 12: after the answer went out, a charged call counts toward the day's statistics. */
  function countForStatistics(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const caller = req.caller;
    if (caller?.key && caller.charge) services.daily.add(caller.key.id, caller.charge.cost);
    done();
  }
}

const newCaller = (network: string): Caller => ({
  network,
  key: null,
  balance: null,
  charge: null,
  trialUsed: null,
  paidByX402: false,
  idempotency: null,
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
  if (body === NOT_UTF8)
    throw new DomainError(
      'invalid_json',
      'The body is not UTF-8: JSON is sent in UTF-8 (RFC 8259). Text in another encoding (Windows-1252, Latin-1) would change its letters, so it was not read.',
    );
  if (body === TOO_DEEP)
    throw new DomainError(
      'invalid_json',
      `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels; no request needs that many. It was not parsed.`,
    );
}
