/** What the x402 rail needs from the store, and what it hands to its callers. */
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';

export type { PaymentRecord, PaymentStore } from '../../store/types.ts';

/** The price of one call and the address of what it buys. */
export interface Quote {
  priceUsd: number;
  resourceUrl: string;
  /** What the route is and takes, for `resource.description` and the `bazaar` extension. */
  discovery?: Discovery;
}

/** A paid route as x402 discovery describes it (built by discovery.ts). */
export interface Discovery {
  method: 'GET' | 'POST';
  /** The route's pattern, `/v1/bic/:code`. */
  routeTemplate: string;
  description: string;
  /** The declared extensions: `{bazaar: {info, schema}}`. */
  extensions: Record<string, unknown>;
}

/** The header that lets an x402 client pay and retry by itself; attach it to every 402. */
export interface PaymentRequiredHeader {
  headerName: 'PAYMENT-REQUIRED';
  headerValue: string;
  requirements: PaymentRequirements[];
}

/** A payment the facilitator has verified for this exact price; not yet settled. */
export interface VerifiedPayment {
  id: string;
  payer: string;
  amountMicros: number;
  quote: Quote;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
}

export type VerifyOutcome =
  | { ok: true; payment: VerifiedPayment }
  | {
      ok: false;
      /** A snake_case code safe to show the client (never the facilitator's own text). */
      reason: string;
      /** The facilitator could not be reached or answered nonsense: not the payer's fault. */
      unavailable: boolean;
      paymentRequired: PaymentRequiredHeader | null;
    };

export type SettleOutcome =
  | {
      ok: true;
      header: { name: 'PAYMENT-RESPONSE'; value: string };
      payer: string;
      amountMicros: number;
      txHash: string;
      /** The store failed to record a payment that did settle: served all the same, and logged. */
      recordError?: unknown;
    }
  | {
      ok: false;
      reason: string;
      /** The facilitator could not be reached: nothing was settled (502, not a refused payment). */
      unavailable?: boolean;
    };
