/** The x402 pay-per-call rail (docs/api.md, "x402 pay-per-call"). Prices live in src/plans.ts. */
export { readX402Config, type X402Config } from './config.ts';
export { createX402Rail, usdToMicros, type RailDeps, type X402Rail } from './rail.ts';
export type {
  PaymentRecord,
  PaymentRequiredHeader,
  PaymentStore,
  Quote,
  SettleOutcome,
  VerifiedPayment,
  VerifyOutcome,
} from './types.ts';
