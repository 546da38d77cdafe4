import type { Database } from 'better-sqlite3';
import { ADDRESS_TIER_LIST, FREE_TIER_LIST } from '../../plans.ts';
import type { CodeCheck, MailboxStore } from '../types.ts';

/** A list of the project's own constant names as SQL string literals. */
const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export function sqliteMailbox(db: Database): MailboxStore {
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
  const miss = db.prepare(`UPDATE verification_challenges SET attempts = attempts + 1 WHERE purpose = @purpose
    AND subject = @subject AND email_hash = @emailHash AND attempts < @max AND expires_at > @now RETURNING attempts`);
  const state = db.prepare(
    'SELECT email_hash AS emailHash, attempts, expires_at AS expiresAt FROM verification_challenges WHERE purpose = ? AND subject = ?',
  );
  const recentFree = db.prepare(`SELECT 1 FROM api_keys WHERE network = ? AND created_at >= ?
    AND tier IN (${sqlList(FREE_TIER_LIST)}) LIMIT 1`);
  const liveFree = db.prepare(`SELECT 1 FROM api_keys WHERE email_hash = ? AND revoked_at IS NULL
    AND tier IN (${sqlList(ADDRESS_TIER_LIST)}) LIMIT 1`);
  const bind = db.prepare(
    'INSERT INTO email_bindings (email_hash, key_id, bound_at) VALUES (?, ?, ?) ON CONFLICT (email_hash, key_id) DO UPDATE SET bound_at = excluded.bound_at',
  );
  const lastBound = db.prepare('SELECT MAX(bound_at) AS at FROM email_bindings WHERE email_hash = ?');

  const tryCode = db.transaction(
    (p: {
      purpose: string;
      subject: string;
      emailHash: string;
      codeHash: string;
      now: number;
      max: number;
    }): CodeCheck => {
      if (consume.all(p).length > 0) return 'ok';
      if (miss.all(p).length > 0) return 'wrong_code';
      const row = state.get(p.purpose, p.subject) as
        | { emailHash: string; attempts: number; expiresAt: number }
        | undefined;
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
    async tryCode(purpose, subject, emailHash, codeHash, now, maxAttempts) {
      return tryCode.immediate({ purpose, subject, emailHash, codeHash, now, max: maxAttempts });
    },
    async freeKeyFromNetworkSince(network, since) {
      return recentFree.get(network, since) !== undefined;
    },
    async liveFreeKeyForEmail(emailHash) {
      return liveFree.get(emailHash) !== undefined;
    },
    async bindEmail(emailHash, keyId, at) {
      bind.run(emailHash, keyId, at);
    },
    async lastEmailBinding(emailHash) {
      return (lastBound.get(emailHash) as { at: number | null }).at;
    },
  };
}
