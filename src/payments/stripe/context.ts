/**
 * What every step of the card rail is given (index.ts builds it once), and its one way to fail:
 * kept apart from index.ts so the steps (checkout, webhook, success, cancel) import it without
 * importing the rail that imports them.
 */
import type Stripe from 'stripe';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { DomainError } from '../../errors.ts';
import type { KeyService } from '../../keys/service.ts';
import type { Store } from '../../store/types.ts';
import type { StripeSettings } from './config.ts';
import type { CardFulfilment } from './fulfil.ts';

export interface CardDeps {
  store: Store;
  keys: KeyService;
  clock: Clock;
  /** Read at call time: `publicUrl` builds the success and cancel addresses. */
  config: Config;
}

export interface CardContext extends CardDeps {
  settings: StripeSettings;
  stripe: Stripe;
  fulfil: CardFulfilment;
}

/** A subscription still running (paid, in trial, or Stripe retrying the card). */
export const RUNNING: ReadonlySet<Stripe.Subscription.Status> = new Set(['active', 'trialing', 'past_due']);

/** Stripe could not be reached or refused the call: 502, with what did not happen, and the cause kept for the log. */
export function stripeFailed(outcome: string, cause: unknown): DomainError {
  return Object.assign(
    new DomainError('payments_unavailable', `The card payment provider could not ${outcome}. Try again shortly.`),
    { cause },
  );
}
