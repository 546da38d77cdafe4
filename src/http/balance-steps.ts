/**
 * Steps 8 and 9 of the pipeline (pipeline.ts), on the way out: a call answered 4xx or 5xx is
 * refunded, a key's first call that stood is recorded, then the X-Quota-* and RateLimit-*
 * headers show the balance after that.
 */
import type { FastifyReply } from 'fastify';
import { type Clock, monthOf } from '../clock.ts';
import type { Balance, Meter } from '../quota/meter.ts';
import type { KeyRow } from '../records.ts';
import type { Store } from '../store/types.ts';
import { isStorageUnavailable } from '../store/unavailable.ts';
import type { Caller } from './caller.ts';
import { setKeyRateLimit, setTrialRateLimit } from './rate-headers.ts';

export function balanceSteps({ meter, store, clock }: { meter: Meter; store: Store; clock: Clock }) {
  const refundDue = (caller: Caller, status: number) => caller.charge !== null && status >= 400;

  /** A key's first charged call that stood makes it claimable (docs/api.md, "Claiming a key"). */
  const firstServedDue = (caller: Caller) =>
    caller.key !== null && caller.key.firstServedAt === null && caller.charge !== null;

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

  async function markFirstServed(caller: Caller): Promise<void> {
    // A refund in step 8 took the charge back: the call did not stand.
    const { charge, key } = caller;
    if (!charge || !key) return;
    const now = clock();
    await store.markServed(key.id, now);
    key.firstServedAt = now;
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

  /**
   * Steps 8 and 9, in order. A promise only when the store must be asked; the usual answer
   * (charged, kept, balance known) asks none, and makes none.
   */
  return function settleBalance(caller: Caller, reply: FastifyReply): Promise<void> | undefined {
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
  };
}

function unlessStoreDown(err: unknown): null {
  if (isStorageUnavailable(err)) return null;
  throw err;
}
