/**
 * The rules that involve an address (docs/api.md, "Generate with an address" and "POST /v1/keys/claim";
 * address ownership in docs/security.md):
 * generate with `email` (and `code`), and claim by mailed code. Knows nothing of HTTP.
 */
import { dayOf, type Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { checkAddress } from '../mail/address.ts';
import type { MxChecker } from '../mail/mx.ts';
import { LIMITS, PLAN } from '../plans.ts';
import type { CounterRef, Store } from '../store/types.ts';
import type { KeyRow } from '../records.ts';
import type { CreationAlert } from './alert.ts';
import type { IssuedKey, KeyService } from './service.ts';
import type { MailboxVerification } from './verification.ts';

const DAY = 24 * 3600_000;

type GenerateOutcome = { issued: IssuedKey; email?: string };
type ClaimOutcome = { status: 'code_sent'; email: string } | { status: 'claimed'; key: KeyRow };

interface EmailKeyDeps {
  store: Store;
  clock: Clock;
  keys: KeyService;
  alert: CreationAlert;
  verification: MailboxVerification;
  mx: MxChecker;
}

const addressRequired = () =>
  new DomainError('invalid_email', 'Send `email`, an address of the form local@domain.tld.');
const onePerDay = () =>
  new DomainError('rate_limited', 'This address already got a key today (UTC); one key per address per day.');
const elsewhere = () =>
  new DomainError(
    'already_claimed_elsewhere',
    'This address already holds a free key, or claimed one in the last 24 hours. Use that key; a key is shown only once, so if it was lost, give another address.',
  );

const held = (address: string) =>
  new DomainError(
    'verification_required',
    `This address is attached to another key without proof, so we mailed a 6-digit code to ${address}. Send the same request again with \`code\` within ${LIMITS.codeMinutes} minutes to take the address.`,
  );

export class EmailKeys {
  constructor(private readonly d: EmailKeyDeps) {}

  /**
   * POST /v1/keys/generate with `email`. An address without `code` from a network that got a
   * free key in the last 24 hours is asked for a code (403 verification_required), alert or not.
   * During a creation alert, an address that cannot be proved right now (no code, no recent key
   * from the network) gets the reduced anonymous key instead, and the address is not attached.
   */
  async generate(network: string, email: string | undefined, code: string | undefined): Promise<GenerateOutcome> {
    const { store, clock, verification } = this.d;
    if (email === undefined) throw addressRequired();
    const address = await checkAddress(email);
    const emailHash = verification.emailHash(address);
    const now = clock();
    const addressToday: CounterRef = { scope: 'keys_per_address', subject: emailHash, period: dayOf(now) };
    const holder = await store.addressHolder(emailHash);
    if (holder === 'unproved') return this.takeBack(network, address, emailHash, code);
    const keyToday = (await store.read(addressToday)) > 0;
    if (holder === 'proved') throw keyToday ? onePerDay() : elsewhere();
    // Refused before any code is mailed or checked: a key that could never be issued must not
    // spend one of the address's daily codes. These reads only refuse early; the atomic takes
    // below still decide.
    if (keyToday) throw onePerDay();
    await this.d.keys.checkNetworkAllowance(network);
    if (code !== undefined) {
      await verification.verify('generate', emailHash, address, code);
    } else if (await store.freeKeyFromNetworkSince(network, now - DAY)) {
      // Alert or not: the code is how this caller proves the mailbox (docs/api.md, "Creation alert").
      await verification.challenge('generate', emailHash, address);
      throw new DomainError(
        'verification_required',
        `A free key was issued from your network in the last 24 hours, so we mailed a 6-digit code to ${address}. Send the same request again with \`code\` within ${LIMITS.codeMinutes} minutes.`,
      );
    } else if (await this.d.alert.isActive()) {
      // No way to prove the mailbox right now: the reduced anonymous key, the address not attached.
      return { issued: await this.d.keys.generateAnonymous(network) };
    }
    return this.issue(network, address, emailHash, code !== undefined);
  }

  /**
   * Generate naming an address that a key holds without proof: whoever can read the mailbox
   * gets it, from any network. Without `code` a code is mailed (403 verification_required);
   * with the right one the unproved key drops to the anonymous plan, keeping its counters, and
   * the prover gets an email key.
   */
  private async takeBack(
    network: string,
    address: string,
    emailHash: string,
    code: string | undefined,
  ): Promise<GenerateOutcome> {
    const { store, clock, verification } = this.d;
    await this.d.keys.checkNetworkAllowance(network);
    if (code === undefined) {
      await verification.challenge('generate', emailHash, address);
      throw held(address);
    }
    await verification.verify('generate', emailHash, address, code);
    const today = dayOf(clock());
    const released = await store.releaseUnproved(emailHash, { tier: 'anonymous', ...PLAN.anonymous });
    // The address's key of the day went to the unproved key: it is the prover's again.
    if (released.some((k) => dayOf(k.createdAt) === today)) {
      await store.refund({ scope: 'keys_per_address', subject: emailHash, period: today }, 1);
    }
    return this.issue(network, address, emailHash, true);
  }

  /** Takes the address's key of the day, then issues the email key and binds the address. */
  private async issue(network: string, address: string, emailHash: string, proved: boolean): Promise<GenerateOutcome> {
    const { store, clock } = this.d;
    const now = clock();
    const addressToday: CounterRef = { scope: 'keys_per_address', subject: emailHash, period: dayOf(now) };
    if ((await store.admit(addressToday, 1, 1)) === null) throw onePerDay();
    try {
      const issued = await this.d.keys.generateEmail(network, emailHash);
      await store.bindEmail(emailHash, issued.key.id, now, proved);
      return { issued, email: address };
    } catch (err) {
      await store.refund(addressToday, 1);
      throw err;
    }
  }

  /** POST /v1/keys/claim: without `code` mails one; with the right `code` raises the key to 200 a month. */
  async claim(
    key: KeyRow,
    network: string,
    email: string | undefined,
    code: string | undefined,
  ): Promise<ClaimOutcome> {
    const { store, clock, verification } = this.d;
    if (key.tier !== 'anonymous') {
      throw new DomainError(
        'already_claimed',
        `This key is already at its full quota (tier ${key.tier}); there is nothing to claim.`,
      );
    }
    if (key.firstServedAt === null) {
      throw new DomainError('unused_key', 'Use this key for at least one call before claiming it.');
    }
    if (email === undefined) throw addressRequired();
    const address = await checkAddress(email, { mx: this.d.mx });
    const emailHash = verification.emailHash(address);
    const now = clock();
    // An address held without proof does not count against its owner: the code decides.
    const holder = await store.addressHolder(emailHash);
    if (holder === 'proved') throw elsewhere();
    const lastBound = await store.lastEmailBinding(emailHash);
    if (holder === null && lastBound !== null && lastBound > now - DAY) throw elsewhere();

    const networkToday: CounterRef = { scope: 'claims_per_network', subject: network, period: dayOf(now) };
    const tooManyClaims = () =>
      new DomainError(
        'claim_rate_limited',
        `At most ${LIMITS.claimsPerNetworkPerDay} keys can be claimed from one network per day (UTC). This key stays as it is; try again tomorrow.`,
      );
    // A read refuses early once the network's claims are used up, with or without a code.
    if ((await store.read(networkToday)) >= LIMITS.claimsPerNetworkPerDay) throw tooManyClaims();
    if (code === undefined) {
      await verification.challenge('claim', key.id, address, key.keyPrefix);
      if (holder === 'unproved') throw held(address);
      return { status: 'code_sent', email: address };
    }

    // The code is checked before a claim slot is taken: wrong codes never hold one of the
    // network's slots, not even for a moment, so guesses cannot block a real claim behind the
    // same network address.
    await verification.verify('claim', key.id, address, code);
    if (holder === 'unproved') await store.releaseUnproved(emailHash, { tier: 'anonymous', ...PLAN.anonymous });
    // Then the slot, atomically. A race lost here leaves the key as it was.
    if ((await store.admit(networkToday, 1, LIMITS.claimsPerNetworkPerDay)) === null) throw tooManyClaims();
    // Two claims for one address racing on the same day: only one passes this step.
    const addressToday: CounterRef = { scope: 'claims_per_address', subject: emailHash, period: dayOf(now) };
    let addressCounted = false;
    try {
      if ((await store.admit(addressToday, 1, 1)) === null) throw elsewhere();
      addressCounted = true;
      const changed = await store.changePlan(key.id, key.planRev, {
        tier: 'claimed',
        basis: PLAN.claimed.basis,
        limit: PLAN.claimed.limit,
        lifetimePeriod: null,
        emailHash,
        // A proved mailbox lifts the creation-alert reduction for good.
        alertBorn: false,
      });
      if (!changed)
        throw new DomainError(
          'already_claimed',
          'This key changed meanwhile (claimed or upgraded); there is nothing left to claim.',
        );
      await store.bindEmail(emailHash, key.id, now, true);
    } catch (err) {
      await store.refund(networkToday, 1);
      if (addressCounted) await store.refund(addressToday, 1);
      throw err;
    }
    const claimed = await store.keyById(key.id);
    if (!claimed) throw new Error(`key ${key.id} is gone right after its claim`);
    return { status: 'claimed', key: claimed };
  }
}
