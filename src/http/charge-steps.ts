/**
 * Steps 3 and 4 of the pipeline (pipeline.ts): who is calling (the key, or none), then what the
 * call is charged: an x402 payment (verified in step 6), the key's quota, or the no-key trial.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteMeter } from '../api/declaration.ts';
import { DomainError } from '../errors.ts';
import type { KeyService } from '../keys/service.ts';
import type { Admission } from '../quota/meter.ts';
import { keyOrPaymentRequired, quotaExhausted, trialExhausted } from '../payments/refusals.ts';
import { hasPayment } from '../payments/x402/header.ts';
import { parsedBody } from './body.ts';
import { CREDENTIAL_MESSAGES, readCredential } from './credentials.ts';
import { type PaymentServices, refusalContext } from './payment-gate.ts';
import { setTrialRateLimit } from './rate-headers.ts';

const unknownKey = () => new DomainError('invalid_api_key', CREDENTIAL_MESSAGES.unknown);

export function chargeSteps(services: PaymentServices & { keys: KeyService }, x402On: boolean) {
  const { keys, meter, clock, store } = services;

  /** The call brings an x402 payment, which step 6 verifies: it draws on no quota or trial. */
  const paysByX402 = (req: FastifyRequest) => x402On && hasPayment(req.headers);

  /**
   * A no-key call that draws no trial call now (a replay, a resumed retry) still shows the
   * trial's balance; one that brings an x402 payment is not on the trial.
   */
  async function showTrialBalance(req: FastifyRequest, routeMeter: RouteMeter): Promise<void> {
    const { caller } = req;
    if (caller.key || !routeMeter.trial || paysByX402(req)) return;
    caller.trialUsed = await meter.trialUsed(caller.network);
  }

  return {
    showTrialBalance,

    /**
     * Step 3: the key presented, if any (401 when it is unknown, or missing where one is
     * required). Given `routeMeter`, the key's charge of step 4 is made with the lookup where the
     * store does both at once (Meter.authenticateAndAdmit), and returned for step 4. On a route
     * that needs no key (`auth: 'none'`: generate) a credential header sent is judged all the
     * same, as on every route, but the key is not taken for the caller: the route does not act
     * for it, and its answer shows no balance (docs/api.md, "Quota headers").
     */
    async authenticate(req: FastifyRequest, routeMeter?: RouteMeter): Promise<Admission | undefined> {
      const credential = readCredential(req.headers);
      const auth = req.routeOptions.config.access?.auth;
      if (credential.kind === 'none') {
        if (auth !== 'key') return;
        throw new DomainError(
          'missing_api_key',
          'Send your key as Authorization: Bearer <API_KEY> (or X-API-Key). Create one with POST /v1/keys/generate.',
        );
      }
      if (credential.kind === 'refused') throw new DomainError('invalid_api_key', credential.message);
      const hash = keys.presentedHash(credential.secret);
      if (hash === null) throw unknownKey();
      const { key, admission } = routeMeter
        ? await meter.authenticateAndAdmit(hash, routeMeter.cost(parsedBody(req.body)))
        : { key: await store.keyByHash(hash), admission: undefined };
      if (!key) throw unknownKey();
      if (auth !== 'none') req.caller.key = key;
      return admission;
    },

    /**
     * Step 3 charges the key with its lookup where the store can, and nothing between steps 3 and
     * 4 may stop the call: no Idempotency-Key to judge (3a), no payment that draws no quota.
     */
    chargesWithLookup(req: FastifyRequest, keyed: boolean): boolean {
      return meter.admitsWithLookup && !keyed && !paysByX402(req);
    },

    /**
     * Step 4: a payment presented (judged in step 6), else the whole cost admitted, or 402.
     * `admitted`: the key's admission, when step 3 made it with the lookup.
     */
    async payOrAdmit(
      req: FastifyRequest,
      reply: FastifyReply,
      routeMeter: RouteMeter,
      admitted?: Admission,
    ): Promise<void> {
      const { caller } = req;
      // A paid call draws on no quota; its payment is verified in step 6 and settled in step 11.
      if (paysByX402(req)) {
        caller.paidByX402 = true;
        return;
      }
      // A retry of a request left unanswered, which may have been charged: not charged again.
      if (caller.idempotency?.resumed) return showTrialBalance(req, routeMeter);
      const body = parsedBody(req.body);
      const hold = caller.idempotency?.hold;
      if (caller.key) {
        const cost = routeMeter.cost(body);
        const admission = admitted ?? (await meter.admitKey(caller.key, cost, hold));
        caller.balance = admission;
        if (!admission.admitted) {
          reply.header('X-Quota-Exhausted', 'true');
          throw quotaExhausted(refusalContext(services, routeMeter, body), caller.key, admission, cost);
        }
        caller.charge = { counter: admission.plan.counter, cost };
        return;
      }
      if (!routeMeter.trial) throw keyOrPaymentRequired(refusalContext(services, routeMeter, body));
      const trial = await meter.admitTrial(caller.network, hold);
      if (!trial.admitted) {
        setTrialRateLimit(reply, trial.used, clock());
        throw trialExhausted(refusalContext(services, routeMeter, body), trial.counter.period);
      }
      caller.trialUsed = trial.used;
      caller.charge = { counter: trial.counter, cost: 1 };
    },
  };
}
