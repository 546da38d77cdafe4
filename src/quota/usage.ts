/** The usage report (docs/api.md, "GET /v1/keys/usage"). */
import { dayOf, monthOf } from '../clock.ts';
import { CLAIM_GRANT_PRICE_USD, LIMITS } from '../plans.ts';
import type { KeyRow } from '../records.ts';
import type { Balance } from './meter.ts';
import { packsOnSale, type Rails } from '../payments/offers.ts';

export function usageReport(key: KeyRow, balance: Balance, now: number, ctx: { baseUrl: string; rails: Rails }) {
  const { plan, used } = balance;
  return {
    used,
    limit: plan.limit,
    remaining: Math.max(plan.limit - used, 0),
    month: monthOf(now),
    key_prefix: key.keyPrefix,
    basis: plan.basis,
    tier: key.tier,
    ...(key.tier === 'anonymous'
      ? {
          claim: {
            url: `${ctx.baseUrl}/v1/keys/claim`,
            raises_limit_to: LIMITS.freePerMonth,
            first_call_made: key.firstServedAt !== null,
            methods: [
              'email_code',
              ...(ctx.rails.x402 ? ['x402'] : []),
              ...(packsOnSale(ctx.rails) ? ['credits'] : []),
            ],
            paid_so_far_usd: key.paidMicros / 1e6,
            paid_needed_usd: CLAIM_GRANT_PRICE_USD,
          },
        }
      : {}),
  };
}

export function trialUsage(used: number, now: number) {
  return {
    used,
    limit: LIMITS.trialPerDay,
    remaining: Math.max(LIMITS.trialPerDay - used, 0),
    day: dayOf(now),
    basis: 'daily' as const,
    tier: 'trial' as const,
  };
}
