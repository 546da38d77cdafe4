/** Who is calling and what the call was charged, attached to each request. */
import type { RouteAccess } from '../api/declaration.ts';
import type { EffectivePlan } from '../quota/plan.ts';
import type { CounterRef, IdempotencyHold } from '../store/types.ts';
import type { KeyRow } from '../records.ts';

export interface Caller {
  network: string;
  key: KeyRow | null;
  /** The key's governing plan and count after this call's admission. */
  balance: { plan: EffectivePlan; used: number } | null;
  /** What to give back if the answer is 4xx or 5xx. */
  charge: { counter: CounterRef; cost: number } | null;
  /** No-key trial calls used today, after this call. */
  trialUsed: number | null;
  /** Paid per call by x402: draws no quota and owes no attribution. */
  paidByX402: boolean;
  /**
   * The Idempotency-Key this call holds (idempotency.ts), written with its charge; `resumed`: it
   * retries the same request left unanswered (its process died), which may have been charged,
   * so this one is not.
   */
  idempotency: { hold: IdempotencyHold; resumed: boolean } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
  interface FastifyContextConfig {
    /** Who may call and what a call costs; a declared route's comes from its declaration. */
    access?: RouteAccess;
  }
}

/**
 * The caller's key on a route whose access rule is `auth: 'key'`: the pipeline answers 401 to
 * every call without one before the handler runs, so a missing key here is a bug (a 500).
 */
export function requiredKey(caller: Caller): KeyRow {
  if (caller.key === null) throw new Error('a route for keys was reached without one');
  return caller.key;
}
