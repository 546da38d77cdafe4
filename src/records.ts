/**
 * The records the domain and the store share: a key with its tier and basis, and what a
 * dataset's date rests on. The bottom of the import graph (src/README.md): the store keeps
 * these, the domain decides with them, and this module imports nothing.
 */

export type Tier = 'anonymous' | 'email' | 'claimed' | 'pro' | 'credits';
export type Basis = 'monthly' | 'lifetime' | 'credits';

export interface KeyRow {
  id: string;
  keyHash: string;
  keyPrefix: string;
  tier: Tier;
  basis: Basis;
  /** Cap of the governing counter: per month, over the lifetime grant, or credits bought. */
  limit: number;
  /** Counter period of a lifetime or credits basis, `lifetime:<claim time>` or `credits:<id>` (quota/plan.ts). */
  lifetimePeriod: string | null;
  emailHash: string | null;
  network: string;
  createdAt: number;
  /** Born during a creation alert without a proved mailbox: reduced while that alert lasts. */
  alertBorn: boolean;
  /**
   * Identity (start time) of the alert the key was born in, so that only that alert reduces it,
   * never a later one. Null (or absent) for a key born outside an alert.
   */
  alertId?: number | null;
  firstServedAt: number | null;
  /** x402 payments made while presenting the key, in micro-USD. */
  paidMicros: number;
  /** The free plan to return to, exactly, when a Pro subscription ends; null unless Pro. */
  fallback: FallbackPlan | null;
  subscriptionId: string | null;
  revokedAt: number | null;
  /** Bumped on every change of tier, basis or limit; guards conditional plan changes. */
  planRev: number;
}

/** A key's charge period meaning "the month of each call" (chargePeriodOf). */
export const MONTH_OF_CALL = 'month';

/**
 * The counter period a key's calls are charged to, from its basis alone: the month of each call
 * (MONTH_OF_CALL) for a monthly key, else its lifetime or credits counter. quota/plan.ts charges
 * every key by it; PostgreSQL's store also keeps it on the key row, so that one statement can look
 * a key up and charge it (store/postgres/key-admissions.ts). A key born in a creation alert is
 * charged by quota/plan.ts alone: its plan also depends on the alert.
 */
export function chargePeriodOf(plan: { basis: Basis; lifetimePeriod: string | null }): string {
  return plan.basis === 'monthly' ? MONTH_OF_CALL : (plan.lifetimePeriod ?? plan.basis);
}

/**
 * A free key's plan kept while it is Pro. Basis, cap and lifetime counter are kept with the
 * tier because a claim by payment is `lifetime` 200 once: rebuilt from the tier alone it would
 * come back as 200 a month, with its lifetime usage forgotten.
 */
export interface FallbackPlan {
  tier: Tier;
  basis: Basis;
  limit: number;
  lifetimePeriod: string | null;
}

/**
 * What an imported dataset's date rests on: the file itself, the operator's `--as-of`, the
 * publisher's file name, or (data update only) the download's Last-Modified or time; `undated`
 * for a source that states no date and is answered as `as_of: null` (its stored date is only the
 * day of import).
 */
export type AsOfBasis = 'file' | 'operator' | 'file_name' | 'last_modified' | 'download_time' | 'undated';
