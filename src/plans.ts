/**
 * Prices, limits and plans in one table. The quota engine, the 402 `options`, the usage
 * `claim` object and the docs all read from here.
 */
import type { Basis, Tier } from './records.ts';

export const LIMITS = {
  trialPerDay: 25,
  anonymousPerMonth: 25,
  freePerMonth: 200,
  paidClaimLifetime: 200,
  proPerMonth: 10_000,
  alertReducedLifetime: 5,
  keysPerNetworkPerDay: 3,
  codesPerAddressPerDay: 5,
  claimsPerNetworkPerDay: 3,
  codeAttempts: 5,
  codeMinutes: 15,
  batchMax: 1000,
  bodyBytes: 1024 * 1024,
  ibanMaxChars: 64,
  extractMaxChars: 20_000,
  extractMaxItems: 1000,
  alertWindowMinutes: 10,
  alertThreshold: 50,
  alertHours: 3,
} as const;

export const PLAN: Record<Exclude<Tier, 'credits'>, { basis: Basis; limit: number }> = {
  anonymous: { basis: 'monthly', limit: LIMITS.anonymousPerMonth },
  email: { basis: 'monthly', limit: LIMITS.freePerMonth },
  claimed: { basis: 'monthly', limit: LIMITS.freePerMonth },
  pro: { basis: 'monthly', limit: LIMITS.proPerMonth },
};

/** Tiers given free: they owe attribution and count against the free-key limits. */
export const FREE_TIER_LIST = ['anonymous', 'email', 'claimed'] as const satisfies readonly Tier[];
export const FREE_TIERS: ReadonlySet<Tier> = new Set(FREE_TIER_LIST);
/** Free tiers bound to a proved address: an address holds at most one live key of these. */
export const ADDRESS_TIER_LIST = ['email', 'claimed'] as const satisfies readonly Tier[];

export interface Pack {
  pack: '1k' | '5k' | '25k';
  credits: number;
  priceUsd: number;
}

export const PACKS: readonly Pack[] = [
  { pack: '1k', credits: 1000, priceUsd: 4 },
  { pack: '5k', credits: 5000, priceUsd: 20 },
  { pack: '25k', credits: 25000, priceUsd: 80 },
];

/** x402 price of one unit of each data route, in USD (docs/api.md, "x402 pay-per-call"). */
export const X402_PRICES_USD = {
  validate: 0.005,
  batchPerIban: 0.002,
  bic: 0.003,
  compliance: 0.02,
  clearing: 0.003,
  fromAccount: 0.005,
  extract: 0.005,
  referenceValidate: 0.002,
  referenceCreate: 0.002,
  paymentCheck: 0.002,
} as const;

/** USD → the 6-decimal units of USDC (micro-USD). */
export const usdToMicros = (usd: number): number => Math.round(usd * 1e6);

export type PricedRoute = Exclude<keyof typeof X402_PRICES_USD, 'batchPerIban'> | 'batch';

/** The x402 price of a call to a data route, in USD: a batch pays per IBAN, rounded to the micro-dollar. */
export function x402PriceUsd(route: PricedRoute, units: number): number {
  if (route === 'batch') return usdToMicros(X402_PRICES_USD.batchPerIban * units) / 1e6;
  return X402_PRICES_USD[route];
}

/** Catalogue price of the claim grant: x402 payments with a key add up to this. */
export const CLAIM_GRANT_PRICE_USD = 1.0;

export const PRO_PRICE_USD_PER_MONTH = 29;
