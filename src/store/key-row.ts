/** The api_keys row as both engines read it: one column list (quoted aliases suit both) and one mapping. */
import type { Basis, KeyRow, Tier } from '../records.ts';

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

/** Field by field: a rest spread here showed as 5 % of a PostgreSQL-backed request. */
export function toKeyRow(raw: RawKeyRow | undefined): KeyRow | null {
  if (!raw) return null;
  const {
    fallbackTier: tier,
    fallbackBasis: basis,
    fallbackLimit: limit,
    fallbackLifetimePeriod: lifetimePeriod,
  } = raw;
  return {
    id: raw.id,
    keyHash: raw.keyHash,
    keyPrefix: raw.keyPrefix,
    tier: raw.tier,
    basis: raw.basis,
    limit: raw.limit,
    lifetimePeriod: raw.lifetimePeriod,
    emailHash: raw.emailHash,
    network: raw.network,
    createdAt: raw.createdAt,
    alertBorn: raw.alertBorn === 1,
    alertId: raw.alertId,
    firstServedAt: raw.firstServedAt,
    paidMicros: raw.paidMicros,
    fallback: tier && basis && limit !== null ? { tier, basis, limit, lifetimePeriod } : null,
    subscriptionId: raw.subscriptionId,
    revokedAt: raw.revokedAt,
    planRev: raw.planRev,
  };
}
