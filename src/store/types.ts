/**
 * The one storage interface. Every engine (SQLite, PostgreSQL) implements all of it, and
 * test/store/contract.ts runs the same suite against each. Every rule with a number in it is
 * enforced by a single conditional write here, never by a read followed by a write.
 */

export type Tier = 'anonymous' | 'email' | 'claimed' | 'pro' | 'credits';
export type Basis = 'monthly' | 'lifetime' | 'credits';

export interface KeyRow {
  id: string;
  keyHash: string;
  keyPrefix: string;
  tier: Tier;
  basis: Basis;
  /** Cap of the governing counter: per month, over the lifetime grant, or credits bought. */
  limit: number;
  /** Counter period used by lifetime and credits bases (see quota/periods.ts). */
  lifetimePeriod: string | null;
  emailHash: string | null;
  network: string;
  createdAt: number;
  /** Born during a creation alert without a proved mailbox: reduced while the alert lasts. */
  alertBorn: boolean;
  firstServedAt: number | null;
  /** x402 payments made while presenting the key, in micro-USD. */
  paidMicros: number;
  /** Tier and basis to return to when a Pro subscription ends. */
  fallbackTier: Tier | null;
  subscriptionId: string | null;
  revokedAt: number | null;
  /** Bumped on every change of tier, basis or limit; guards conditional plan changes. */
  planRev: number;
}

export type NewKey = Omit<KeyRow, 'firstServedAt' | 'paidMicros' | 'fallbackTier' | 'subscriptionId' | 'revokedAt' | 'planRev'>;

/** A plan change applied only if the key is still at `planRev`. */
export interface PlanChange {
  tier: Tier;
  basis: Basis;
  limit: number;
  lifetimePeriod: string | null;
  emailHash?: string | null;
  fallbackTier?: Tier | null;
  subscriptionId?: string | null;
  alertBorn?: boolean;
}

export interface KeyStore {
  insertKey(key: NewKey): Promise<void>;
  keyByHash(keyHash: string): Promise<KeyRow | null>;
  keyById(id: string): Promise<KeyRow | null>;
  /** Replaces the secret only if `oldHash` is still current. */
  rotateKey(id: string, oldHash: string, newHash: string, newPrefix: string): Promise<boolean>;
  /** Applies a plan change only if the key is still at `expectedRev`; false otherwise. */
  changePlan(id: string, expectedRev: number, change: PlanChange): Promise<boolean>;
  /** Records the first served call (once). */
  markServed(id: string, at: number): Promise<void>;
}

/** A counter: who (`scope` + `subject`) in which period (a month, a day, or a fixed label). */
export interface CounterRef {
  scope: string;
  subject: string;
  period: string;
}

export interface CounterStore {
  /**
   * Adds `cost` only if the result stays within `limit`, in one atomic statement.
   * Returns the new count, or null when refused (nothing is added).
   */
  admit(ref: CounterRef, cost: number, limit: number): Promise<number | null>;
  /** Takes `cost` back (never below zero). Returns the new count. */
  refund(ref: CounterRef, cost: number): Promise<number>;
  read(ref: CounterRef): Promise<number>;
}

export interface DatasetMeta {
  kind: string;
  source: string;
  asOf: string;
  importedAt: number;
  count: number;
}

/** Imported reference data: one dataset per kind, replaced whole on each import. */
export interface DatasetStore {
  putDataset(meta: DatasetMeta, records: unknown[]): Promise<void>;
  getDataset(kind: string): Promise<{ meta: DatasetMeta; records: unknown[] } | null>;
  listDatasets(): Promise<DatasetMeta[]>;
}

export interface SettingStore {
  /** Sets `name` unless it exists; returns the stored value either way. */
  settingOrInit(name: string, value: string): Promise<string>;
  getSetting(name: string): Promise<string | null>;
  setSetting(name: string, value: string): Promise<void>;
}

export interface Store extends KeyStore, CounterStore, DatasetStore, SettingStore {
  readonly engine: 'sqlite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
}
