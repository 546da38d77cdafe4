import { ADDRESS_TIER_LIST, FREE_TIER_LIST } from '../../plans.ts';
import { chargePeriodOf } from '../../records.ts';
import { sqlList } from '../sql-list.ts';
import type { CodeCheck, MailboxStore, ReleasedKey } from '../types.ts';
import type { Pg } from './pg.ts';

export function pgMailbox({ sql, idempotent, once }: Pg): MailboxStore {
  return {
    // Replacing the row voids the earlier code and starts the attempts again.
    async putChallenge(c) {
      await idempotent(
        () => sql`INSERT INTO verification_challenges (purpose, subject, email_hash, code_hash, attempts, created_at, expires_at)
        VALUES (${c.purpose}, ${c.subject}, ${c.emailHash}, ${c.codeHash}, 0, ${c.createdAt}::bigint, ${c.expiresAt}::bigint)
        ON CONFLICT (purpose, subject) DO UPDATE SET email_hash = excluded.email_hash, code_hash = excluded.code_hash,
        attempts = 0, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      );
    },
    async dropChallenge(purpose, subject, codeHash) {
      await idempotent(
        () =>
          sql`DELETE FROM verification_challenges WHERE purpose = ${purpose} AND subject = ${subject} AND code_hash = ${codeHash}`,
      );
    },
    // Each write re-checks its WHERE on the newest row version, so a right code is won once and
    // parallel wrong codes never push `attempts` past the limit.
    async tryCode(purpose, subject, emailHash, codeHash, now, max, onWrongCode) {
      const result = await once(() =>
        sql.begin(async (tx): Promise<CodeCheck> => {
          const won = await tx`DELETE FROM verification_challenges WHERE purpose = ${purpose} AND subject = ${subject}
          AND email_hash = ${emailHash} AND code_hash = ${codeHash} AND attempts < ${max}::integer AND expires_at > ${now}::bigint
          RETURNING attempts`;
          if (won.length > 0) return 'ok';
          const missed = await tx`UPDATE verification_challenges SET attempts = attempts + 1 WHERE purpose = ${purpose}
          AND subject = ${subject} AND email_hash = ${emailHash} AND attempts < ${max}::integer AND expires_at > ${now}::bigint
          RETURNING attempts`;
          if (missed.length > 0) {
            onWrongCode?.(Number(missed[0].attempts));
            return 'wrong_code';
          }
          const rows = await tx<{ emailHash: string; attempts: number }[]>`SELECT email_hash AS "emailHash", attempts
          FROM verification_challenges WHERE purpose = ${purpose} AND subject = ${subject}`;
          if (rows.length === 0 || rows[0].emailHash !== emailHash) return 'no_challenge';
          return rows[0].attempts >= max ? 'too_many_attempts' : 'expired';
        }),
      );
      return result;
    },
    async freeKeyFromNetworkSince(network, since) {
      const rows = await idempotent(
        () => sql`SELECT 1 FROM api_keys WHERE network = ${network} AND created_at >= ${since}::bigint
        AND tier IN ${sql.unsafe(sqlList(FREE_TIER_LIST))} LIMIT 1`,
      );
      return rows.length > 0;
    },
    async addressHolder(emailHash) {
      const [row] = await idempotent(
        () => sql<{ keys: number; proved: number | null }[]>`SELECT COUNT(*)::bigint AS keys,
        MAX(CASE WHEN k.tier = 'claimed' OR EXISTS (SELECT 1 FROM email_bindings b WHERE b.key_id = k.id
          AND b.email_hash = k.email_hash AND b.proved = 1) THEN 1 ELSE 0 END) AS proved
        FROM api_keys k WHERE k.email_hash = ${emailHash} AND k.revoked_at IS NULL AND k.tier IN ${sql.unsafe(sqlList(ADDRESS_TIER_LIST))}`,
      );
      return row.keys === 0 ? null : row.proved ? 'proved' : 'unproved';
    },
    async bindEmail(emailHash, keyId, at, proved) {
      await idempotent(
        () => sql`INSERT INTO email_bindings (email_hash, key_id, bound_at, proved)
        VALUES (${emailHash}, ${keyId}, ${at}::bigint, ${proved ? 1 : 0}::integer)
        ON CONFLICT (email_hash, key_id) DO UPDATE SET bound_at = excluded.bound_at, proved = excluded.proved`,
      );
    },
    // Safe to repeat: a second run finds nothing left to release.
    async releaseUnproved(emailHash, plan) {
      return idempotent(() =>
        sql.begin(async (tx) => {
          const released = await tx<ReleasedKey[]>`UPDATE api_keys SET tier = ${plan.tier}, basis = ${plan.basis},
          cap = ${plan.limit}::bigint, lifetime_period = NULL,
          charge_period = ${chargePeriodOf({ basis: plan.basis, lifetimePeriod: null })}, email_hash = NULL, plan_rev = plan_rev + 1
          WHERE email_hash = ${emailHash} AND revoked_at IS NULL AND tier = 'email'
          AND NOT EXISTS (SELECT 1 FROM email_bindings b WHERE b.key_id = api_keys.id AND b.email_hash = ${emailHash}
            AND b.proved = 1)
          RETURNING id, created_at AS "createdAt"`;
          await tx`DELETE FROM email_bindings WHERE email_hash = ${emailHash} AND proved = 0`;
          return released.map((k) => ({ id: k.id, createdAt: k.createdAt }));
        }),
      );
    },
    async lastEmailBinding(emailHash) {
      const rows = await idempotent(
        () =>
          sql<{ at: number | null }[]>`SELECT MAX(bound_at) AS at FROM email_bindings WHERE email_hash = ${emailHash}`,
      );
      return rows[0]?.at ?? null;
    },
  };
}
