/**
 * Every 402 the service answers, as a DomainError whose `options` come from offers.ts and whose
 * reason (else the code) is what the metrics count; the wire puts it in `cause` (src/http/errors.ts).
 */
import { monthOf, nextDayStart } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { isRecord } from '../is-record.ts';
import { LIMITS } from '../plans.ts';
import type { Admission } from '../quota/meter.ts';
import type { KeyRow } from '../records.ts';
import { type Offer, offers, type OfferContext } from './offers.ts';

/** What every refusal's offers depend on besides the caller. */
export type RefusalContext = Omit<OfferContext, 'key' | 'pack'>;

export function quotaExhausted(ctx: RefusalContext, key: KeyRow, admission: Admission, cost: number): DomainError {
  const { basis, limit } = admission.plan;
  const needs = cost > 1 ? ` and this call needs ${cost}` : '';
  return new DomainError(
    'quota_exhausted',
    `This key has used ${admission.used} of its ${limit} ${basis === 'monthly' ? 'monthly ' : ''}requests${needs}.`,
    {
      used: admission.used,
      limit,
      month: monthOf(ctx.now),
      basis,
      options: offers({ ...ctx, key: { tier: key.tier, basis } }),
    },
  );
}

/**
 * What a no-key call to a route (REST) or a tool (MCP) needs: x402 is named only when the
 * refusal offers it, so never where its rail is off (docs/api.md, "402 answers").
 */
export const keyOrPaymentMessage = (options: readonly unknown[], subject: 'route' | 'tool'): string =>
  `This ${subject} needs an API key${options.some((o) => isRecord(o) && o.type === 'x402') ? ' or an x402 payment' : ''}.`;

export function keyOrPaymentRequired(ctx: RefusalContext): DomainError {
  const options = offers(ctx);
  return new DomainError('payment_required', keyOrPaymentMessage(options, 'route'), {
    reason: 'key_or_payment_required',
    options,
  });
}

export const trialExhausted = (ctx: RefusalContext, day: string): DomainError =>
  new DomainError(
    'payment_required',
    `The no-key trial allows ${LIMITS.trialPerDay} validations a day from one network; create a free key to go on.`,
    {
      reason: 'trial_exhausted',
      limit: LIMITS.trialPerDay,
      day,
      resets_at: nextDayStart(ctx.now),
      options: offers(ctx),
    },
  );

/** A pack asked of the x402 route on a server that sells packs by card only. */
export const cardCheckoutRequired = (ctx: OfferContext): DomainError =>
  new DomainError('payment_required', 'This server sells packs by card: start a checkout.', {
    reason: 'card_checkout_required',
    options: offers(ctx),
  });

const X402_MESSAGES: Record<string, string> = {
  payment_required: 'This call is paid per call with x402: sign the payment in the PAYMENT-REQUIRED header and retry.',
  payment_already_used: 'This payment was already used; sign a new one.',
  malformed_payment:
    'PAYMENT-SIGNATURE is not a decodable x402 payment: send base64 JSON of a payment for the PAYMENT-REQUIRED offer.',
  settlement_failed: 'The payment could not be settled, so the result is withheld. Sign a new payment and retry.',
};

/** An x402 payment missing, refused or not settled (402), or a facilitator out of reach (502). */
export function x402Refused(reason: string, options: Offer[] | null): DomainError {
  if (!options) {
    return new DomainError(
      'payments_unavailable',
      'The x402 facilitator could not be reached, so the payment was neither checked nor charged; it stays good. Send the same request again shortly.',
      { reason },
    );
  }
  // x402's HTTP transport: a payload that does not decode is 400, a refused payment 402.
  const code = reason === 'malformed_payment' ? 'invalid_payment' : 'payment_required';
  return new DomainError(code, X402_MESSAGES[reason] ?? 'The payment was refused.', {
    reason,
    options,
  });
}
