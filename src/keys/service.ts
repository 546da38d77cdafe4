/** Issuing, authenticating and rotating keys. Takes a store and a clock; knows nothing of HTTP. */
import { randomUUID } from 'node:crypto';
import { dayOf, type Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { LIMITS, PLAN } from '../plans.ts';
import type { CounterRef, NewKey, Store } from '../store/types.ts';
import type { KeyRow } from '../records.ts';
import type { CreationAlert } from './alert.ts';
import { SecretHashes } from './secret-hashes.ts';
import { KEY_PATTERN, keyedHash, newSecret } from './secret.ts';

export interface IssuedKey {
  secret: string;
  key: NewKey;
  /** Born in a creation alert: reduced cap until the alert ends. */
  reduced: boolean;
}

const creationLimit = () =>
  new DomainError(
    'key_creation_limit',
    `This network has created ${LIMITS.keysPerNetworkPerDay} free keys today (UTC). Existing keys keep working; try again tomorrow.`,
  );

export class KeyService {
  private readonly presented: SecretHashes;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly pepper: string,
    private readonly alert: CreationAlert,
  ) {
    this.presented = new SecretHashes((secret) => keyedHash(pepper, secret));
  }

  hash(value: string): string {
    return keyedHash(this.pepper, value);
  }

  /** The anonymous path: no address, at most 3 free keys per network per UTC day. */
  async generateAnonymous(network: string): Promise<IssuedKey> {
    return this.withinNetworkAllowance(network, async () => {
      const alertId = await this.alert.recordAnonymousCreation();
      return this.insert({ tier: 'anonymous', network, emailHash: null, alertBorn: alertId !== null, alertId });
    });
  }

  /** An email-tier key (200 a month); counts against the same 3 free keys per network per day. */
  async generateEmail(network: string, emailHash: string): Promise<IssuedKey> {
    return this.withinNetworkAllowance(network, () =>
      this.insert({ tier: 'email', network, emailHash, alertBorn: false }),
    );
  }

  /**
   * Refuses early, by a read, when the network has already had its free keys today: lets the
   * address path refuse before it mails a code for a key that could never be issued. The
   * allowance itself is still taken atomically when the key is created.
   */
  async checkNetworkAllowance(network: string): Promise<void> {
    if ((await this.store.read(this.perNetwork(network))) >= LIMITS.keysPerNetworkPerDay) throw creationLimit();
  }

  private perNetwork(network: string): CounterRef {
    return { scope: 'keys_per_network', subject: network, period: dayOf(this.clock()) };
  }

  private async withinNetworkAllowance(network: string, create: () => Promise<IssuedKey>): Promise<IssuedKey> {
    const perNetwork = this.perNetwork(network);
    if ((await this.store.admit(perNetwork, 1, LIMITS.keysPerNetworkPerDay)) === null) throw creationLimit();
    try {
      return await create();
    } catch (err) {
      await this.store.refund(perNetwork, 1);
      throw err;
    }
  }

  /** Inserts a new free or paid key and returns its secret (shown once, stored only hashed). */
  async insert(
    spec: Pick<NewKey, 'tier' | 'network' | 'emailHash' | 'alertBorn'> & Partial<NewKey>,
  ): Promise<IssuedKey> {
    const { secret, prefix } = newSecret();
    const plan = spec.tier === 'credits' ? { basis: 'credits' as const, limit: spec.limit ?? 0 } : PLAN[spec.tier];
    const key: NewKey = {
      id: randomUUID(),
      keyHash: this.hash(secret),
      keyPrefix: prefix,
      basis: plan.basis,
      limit: plan.limit,
      lifetimePeriod: null,
      createdAt: this.clock(),
      ...spec,
    };
    await this.store.insertKey(key);
    return { secret, key, reduced: key.alertBorn };
  }

  /** The key for a presented secret, or null when it is unknown, rotated or revoked. */
  async authenticate(secret: string): Promise<KeyRow | null> {
    const hash = this.presentedHash(secret);
    return hash === null ? null : this.store.keyByHash(hash);
  }

  /** The stored hash of a presented secret; null when it is not shaped like a key. */
  presentedHash(secret: string): string | null {
    return KEY_PATTERN.test(secret) ? this.presented.hashOf(secret) : null;
  }

  /** A new secret for the same holder: tier, cap and counters stay with the key. `keyHash` is the secret's stored hash. */
  async rotate(key: KeyRow): Promise<{ secret: string; prefix: string; keyHash: string }> {
    const { secret, prefix } = newSecret();
    const keyHash = this.hash(secret);
    if (!(await this.store.rotateKey(key.id, key.keyHash, keyHash, prefix))) {
      throw new DomainError('invalid_api_key', 'This key was rotated or revoked meanwhile; use the current key.');
    }
    return { secret, prefix, keyHash };
  }
}
