import type { Database } from 'better-sqlite3';
import { ADDRESS_TIER_LIST, FREE_TIER_LIST } from '../../plans.ts';
import { sqlList } from '../sql-list.ts';
import type { CodeCheck, MailboxStore, ReleasedKey } from '../types.ts';
import type { Durably } from './durable.ts';
import { theRow } from './row.ts';

/**
 * `onKeyChange` drops the key lookup cache when keys are released. An address bound to a key and
 * keys released from an address (both part of a claim) commit durably.
 */
export function sqliteMailbox(db: Database, onKeyChange: () => void, durably: Durably): MailboxStore {
  // Replacing the row voids the earlier code and starts the attempts again.
  const put =
    db.prepare(`INSERT INTO verification_challenges (purpose, subject, email_hash, code_hash, attempts, created_at, expires_at)
    VALUES (@purpose, @subject, @emailHash, @codeHash, 0, @createdAt, @expiresAt)
    ON CONFLICT (purpose, subject) DO UPDATE SET email_hash = excluded.email_hash, code_hash = excluded.code_hash,
    attempts = 0, created_at = excluded.created_at, expires_at = excluded.expires_at`);
  const drop = db.prepare('DELETE FROM verification_challenges WHERE purpose = ? AND subject = ? AND code_hash = ?');
  // The right code consumes a live, unlocked challenge: only one request can win it.
  const consume = db.prepare(`DELETE FROM verification_challenges WHERE purpose = @purpose AND subject = @subject
    AND email_hash = @emailHash AND code_hash = @codeHash AND attempts < @max AND expires_at > @now RETURNING attempts`);
  // A wrong code counts one attempt, never past the limit, whatever the number of parallel guesses.
  const miss = db.prepare<
    Record<string, unknown>,
    { attempts: number }
  >(`UPDATE verification_challenges SET attempts = attempts + 1 WHERE purpose = @purpose
    AND subject = @subject AND email_hash = @emailHash AND attempts < @max AND expires_at > @now RETURNING attempts`);
  const state = db.prepare<[string, string], { emailHash: string; attempts: number; expiresAt: number }>(
    'SELECT email_hash AS emailHash, attempts, expires_at AS expiresAt FROM verification_challenges WHERE purpose = ? AND subject = ?',
  );
  const recentFree = db.prepare(`SELECT 1 FROM api_keys WHERE network = ? AND created_at >= ?
    AND tier IN ${sqlList(FREE_TIER_LIST)} LIMIT 1`);
  const holder = db.prepare<{ emailHash: string }, { keys: number; proved: number | null }>(HOLDER);
  const bind = db.prepare(`INSERT INTO email_bindings (email_hash, key_id, bound_at, proved) VALUES (?, ?, ?, ?)
    ON CONFLICT (email_hash, key_id) DO UPDATE SET bound_at = excluded.bound_at, proved = excluded.proved`);
  const release = db.prepare<{ emailHash: string; tier: string; basis: string; limit: number }, ReleasedKey>(RELEASE);
  const forgetUnproved = db.prepare('DELETE FROM email_bindings WHERE email_hash = ? AND proved = 0');
  const releaseTx = db.transaction((emailHash: string, plan: { tier: string; basis: string; limit: number }) => {
    const released = release.all({ emailHash, ...plan });
    forgetUnproved.run(emailHash);
    return released;
  });
  const lastBound = db.prepare<[string], { at: number | null }>(
    'SELECT MAX(bound_at) AS at FROM email_bindings WHERE email_hash = ?',
  );

  const tryCode = db.transaction(
    (p: {
      purpose: string;
      subject: string;
      emailHash: string;
      codeHash: string;
      now: number;
      max: number;
      onWrongCode?: (attempts: number) => void;
    }): CodeCheck => {
      const { onWrongCode, ...args } = p;
      if (consume.all(args).length > 0) return 'ok';
      const [missed] = miss.all(args);
      if (missed) {
        onWrongCode?.(missed.attempts);
        return 'wrong_code';
      }
      const row = state.get(p.purpose, p.subject);
      if (!row || row.emailHash !== p.emailHash) return 'no_challenge';
      return row.attempts >= p.max ? 'too_many_attempts' : 'expired';
    },
  );

  return {
    async putChallenge(c) {
      put.run(c);
    },
    async dropChallenge(purpose, subject, codeHash) {
      drop.run(purpose, subject, codeHash);
    },
    async tryCode(purpose, subject, emailHash, codeHash, now, maxAttempts, onWrongCode) {
      return tryCode.immediate({ purpose, subject, emailHash, codeHash, now, max: maxAttempts, onWrongCode });
    },
    async freeKeyFromNetworkSince(network, since) {
      return recentFree.get(network, since) !== undefined;
    },
    async addressHolder(emailHash) {
      const row = theRow(holder.get({ emailHash }), 'the address holder count');
      return row.keys === 0 ? null : row.proved ? 'proved' : 'unproved';
    },
    async bindEmail(emailHash, keyId, at, proved) {
      durably(() => bind.run(emailHash, keyId, at, proved ? 1 : 0))();
    },
    async releaseUnproved(emailHash, plan) {
      onKeyChange();
      return durably(() => releaseTx.immediate(emailHash, plan))();
    },
    async lastEmailBinding(emailHash) {
      return theRow(lastBound.get(emailHash), 'the last binding aggregate').at;
    },
  };
}

/** See MailboxStore.addressHolder. */
const HOLDER = `SELECT COUNT(*) AS keys,
  MAX(CASE WHEN k.tier = 'claimed' OR EXISTS (SELECT 1 FROM email_bindings b WHERE b.key_id = k.id
    AND b.email_hash = k.email_hash AND b.proved = 1) THEN 1 ELSE 0 END) AS proved
  FROM api_keys k WHERE k.email_hash = @emailHash AND k.revoked_at IS NULL AND k.tier IN ${sqlList(ADDRESS_TIER_LIST)}`;

/** See MailboxStore.releaseUnproved. `.all()` on RETURNING (see README). */
const RELEASE = `UPDATE api_keys SET tier = @tier, basis = @basis, cap = @limit, lifetime_period = NULL,
  email_hash = NULL, plan_rev = plan_rev + 1
  WHERE email_hash = @emailHash AND revoked_at IS NULL AND tier = 'email'
  AND NOT EXISTS (SELECT 1 FROM email_bindings b WHERE b.key_id = api_keys.id AND b.email_hash = @emailHash AND b.proved = 1)
  RETURNING id, created_at AS "createdAt"`;
