/**
 * Claims by payment (docs/api.md, "x402 pay-per-call"): an x402 payment reaching the claim grant's
 * price, or a pack bought while presenting the key (by x402 or by card), raises an anonymous key
 * to `claimed`, basis lifetime, 200 requests once, counted from 0 at the claim.
 */
import type { Clock } from '../clock.ts';
import { CLAIM_GRANT_PRICE_USD, LIMITS, usdToMicros } from '../plans.ts';
import type { PlanChange, Store } from '../store/types.ts';
import type { KeyRow } from '../records.ts';

/** Applies `change(key)` at the key's current revision; re-reads and retries if it moved meanwhile. */
export async function changePlanIf(
  store: Store,
  keyId: string,
  change: (key: KeyRow) => PlanChange | null,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const key = await store.keyById(keyId);
    if (!key || key.revokedAt !== null) return false;
    const next = change(key);
    if (!next) return false;
    if (await store.changePlan(key.id, key.planRev, next)) return true;
  }
  throw new Error(`key ${keyId} kept changing; the step will be retried`);
}

/** Lifetime 200 for a still-anonymous key; false when the key was no longer anonymous. */
export function claimByPayment(store: Store, clock: Clock, keyId: string): Promise<boolean> {
  return changePlanIf(store, keyId, (key) =>
    key.tier !== 'anonymous'
      ? null
      : {
          tier: 'claimed',
          basis: 'lifetime',
          limit: LIMITS.paidClaimLifetime,
          lifetimePeriod: `lifetime:${clock()}`,
          alertBorn: false,
        },
  );
}

/** Adds an x402 payment made with an anonymous key; claims it once the total reaches the grant's price. */
async function addPaymentToward(store: Store, clock: Clock, key: KeyRow, micros: number): Promise<boolean> {
  if (key.tier !== 'anonymous') return false;
  const total = await store.addPaidMicros(key.id, micros);
  return total >= usdToMicros(CLAIM_GRANT_PRICE_USD) && claimByPayment(store, clock, key.id);
}

/**
 * After an x402 payment settled with a key presented: a pack claims the key at once, a paid
 * call counts toward the claim grant.
 */
export async function claimOnPayment(
  store: Store,
  clock: Clock,
  key: KeyRow | null,
  paid: { pack: boolean; micros: number },
): Promise<void> {
  if (!key) return;
  if (paid.pack) await claimByPayment(store, clock, key.id);
  else await addPaymentToward(store, clock, key, paid.micros);
}
