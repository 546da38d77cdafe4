/** The api_keys row as both engines read it: one column list (quoted aliases suit both) and one mapping. */
import type { Basis, KeyRow, Tier } from './types.ts';

export const KEY_COLUMNS = `id, key_hash AS "keyHash", key_prefix AS "keyPrefix", tier, basis, cap AS "limit",
  lifetime_period AS "lifetimePeriod", email_hash AS "emailHash", network, created_at AS "createdAt",
  alert_born AS "alertBorn", alert_id AS "alertId", first_served_at AS "firstServedAt", paid_micros AS "paidMicros",
  fallback_tier AS "fallbackTier", fallback_basis AS "fallbackBasis", fallback_cap AS "fallbackLimit",
  fallback_lifetime_period AS "fallbackLifetimePeriod", subscription_id AS "subscriptionId", revoked_at AS "revokedAt",
  plan_rev AS "planRev"`;

export type RawKeyRow = Omit<KeyRow, 'alertBorn' | 'fallback'> & {
  alertBorn: number;
  fallbackTier: Tier | null;
  fallbackBasis: Basis | null;
  fallbackLimit: number | null;
  fallbackLifetimePeriod: string | null;
};

export function toKeyRow(raw: RawKeyRow | undefined): KeyRow | null {
  if (!raw) return null;
  const { alertBorn, fallbackTier: tier, fallbackBasis: basis, fallbackLimit: limit, fallbackLifetimePeriod: lifetimePeriod, ...row } = raw;
  const fallback = tier && basis && limit !== null ? { tier, basis, limit, lifetimePeriod } : null;
  return { ...row, alertBorn: alertBorn === 1, fallback };
}
