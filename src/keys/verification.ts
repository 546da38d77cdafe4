/**
 * Mailbox verification (docs/api.md, "Mailbox verification"): a 6-digit code from a CSPRNG, kept
 * only as a keyed hash, valid 15 minutes, locked after 5 wrong answers, at most 5 mailed per
 * address per UTC day. A mail that cannot be sent leaves nothing behind: the daily count is
 * given back and the challenge removed.
 */
import { randomInt } from 'node:crypto';
import { dayOf, type Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { mailboxOf } from '../mail/address.ts';
import type { Mailer } from '../mail/sender.ts';
import { LIMITS } from '../plans.ts';
import type { Challenge, CodeCheck, CounterRef, Store } from '../store/types.ts';

const REASONS: Record<Exclude<CodeCheck, 'ok'>, string> = {
  wrong_code: 'The code does not match. Check the latest mail we sent and try again.',
  expired: `The code has expired (codes are valid ${LIMITS.codeMinutes} minutes). Send the request again without \`code\` to get a new one.`,
  no_challenge: 'No code is pending for this address. Send the request without `code` to get one.',
  too_many_attempts: `${LIMITS.codeAttempts} wrong codes were tried, so this code is locked. Send the request again without \`code\` to get a new one.`,
};

export class MailboxVerification {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly hash: (value: string) => string,
    private readonly mailer: Mailer,
  ) {}

  /**
   * The only form in which an address is stored: the hash of its mailbox (mailboxOf), so that
   * `+tag` variants and Gmail's dots are one address for every per-address limit.
   */
  emailHash(address: string): string {
    return this.hash(`email:${mailboxOf(address)}`);
  }

  /** Mails a new code for `subject`, voiding any earlier one. */
  async challenge(purpose: Challenge['purpose'], subject: string, address: string, keyPrefix?: string): Promise<void> {
    const now = this.clock();
    const emailHash = this.emailHash(address);
    const daily: CounterRef = { scope: 'codes_per_address', subject: emailHash, period: dayOf(now) };
    if ((await this.store.admit(daily, 1, LIMITS.codesPerAddressPerDay)) === null) {
      throw new DomainError(
        'verification_rate_limited',
        `At most ${LIMITS.codesPerAddressPerDay} codes are mailed to one address per day (UTC). Use the latest code, or try again tomorrow.`,
      );
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeHash = this.codeHash(purpose, subject, code);
    try {
      // Stored before the mail leaves, so that a quick reader never finds it unknown.
      await this.store.putChallenge({
        purpose,
        subject,
        emailHash,
        codeHash,
        createdAt: now,
        expiresAt: now + LIMITS.codeMinutes * 60_000,
      });
      await this.mailer.sendCode(address, code, purpose, { keyPrefix, expiresInMinutes: LIMITS.codeMinutes });
    } catch (err) {
      await this.store.dropChallenge(purpose, subject, codeHash);
      await this.store.refund(daily, 1);
      throw err;
    }
  }

  /**
   * Accepts the right code once; anything else is 403 verification_failed with its reason. What
   * cannot be a mailed code (not 6 digits: an empty field, a slip of the paste) is 400 and not
   * counted, so that it never uses up one of the tries a real code has.
   */
  async verify(purpose: Challenge['purpose'], subject: string, address: string, sent: string): Promise<void> {
    const code = sent.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(code))
      throw new DomainError(
        'invalid_request',
        `The code is the 6 digits from the mail; ${code ? `this has ${code.length} characters` : 'none was typed'}. It was not counted as a try.`,
        { field: 'code' },
      );
    let attempts: number = LIMITS.codeAttempts;
    const result = await this.store.tryCode(
      purpose,
      subject,
      this.emailHash(address),
      this.codeHash(purpose, subject, code),
      this.clock(),
      LIMITS.codeAttempts,
      (counted) => {
        attempts = counted;
      },
    );
    if (result === 'ok') return;
    // How many more codes may be tried before this one locks: 0 once it is locked or gone.
    const attemptsLeft = result === 'wrong_code' ? Math.max(LIMITS.codeAttempts - attempts, 0) : 0;
    throw new DomainError('verification_failed', REASONS[result], { reason: result, attempts_left: attemptsLeft });
  }

  private codeHash(purpose: string, subject: string, code: string): string {
    return this.hash(`code:${purpose}:${subject}:${code}`);
  }
}
