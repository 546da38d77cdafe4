/**
 * The one storage interface. Every engine (SQLite, PostgreSQL) implements all of it, and
 * test/store/contract.ts runs the same suite against each. Every rule with a number in it is
 * enforced by a single conditional write here, never by a read followed by a write.
 */
import type { AsOfBasis, Basis, FallbackPlan, KeyRow, Tier } from '../records.ts';

export type NewKey = Omit<
  KeyRow,
  'firstServedAt' | 'paidMicros' | 'fallback' | 'subscriptionId' | 'revokedAt' | 'planRev'
>;

/** A plan change applied only if the key is still at `planRev`. */
export interface PlanChange {
  tier: Tier;
  basis: Basis;
  limit: number;
  lifetimePeriod: string | null;
  emailHash?: string | null;
  fallback?: FallbackPlan | null;
  subscriptionId?: string | null;
  alertBorn?: boolean;
}

/**
 * A key found by keyByHashAdmitting, and the charge made with the lookup: on the counter of
 * `period`, `used` the count after it, or null when refused (nothing charged). Without `charged`
 * nothing was tried: the caller admits as usual.
 */
export interface KeyAdmission {
  key: KeyRow | null;
  charged?: { period: string; used: number | null };
}

export interface KeyStore {
  insertKey(key: NewKey): Promise<void>;
  keyByHash(keyHash: string): Promise<KeyRow | null>;
  /**
   * The key of `keyHash` and, in the same statement, `cost` charged to the counter of the charge
   * period stored on its row (records.ts's chargePeriodOf; `month` stands for the month of the
   * call), up to its cap, when that counter row exists and the key was not born in a creation
   * alert. PostgreSQL only, where it saves a round trip; callers use keyByHash without it.
   */
  keyByHashAdmitting?(keyHash: string, cost: number, month: string): Promise<KeyAdmission>;
  keyById(id: string): Promise<KeyRow | null>;
  /** Replaces the secret only if `oldHash` is still current. */
  rotateKey(id: string, oldHash: string, newHash: string, newPrefix: string): Promise<boolean>;
  /** Applies a plan change only if the key is still at `expectedRev`; false otherwise. */
  changePlan(id: string, expectedRev: number, change: PlanChange): Promise<boolean>;
  /** Records the first served call (once). */
  markServed(id: string, at: number): Promise<void>;
  /** Revokes a live key: its secret answers 401 from then on. False when already revoked or unknown. */
  revokeKey(id: string, at: number): Promise<boolean>;
}

/**
 * What a counter counts: a key's quota, the no-key trial, and the daily limits on free keys,
 * mailed codes and claims (docs/api.md, "Quota", "Generate with an address", "POST /v1/keys/claim").
 */
export type CounterScope =
  | 'key'
  | 'trial'
  | 'keys_per_network'
  | 'keys_per_address'
  | 'codes_per_address'
  | 'claims_per_network'
  | 'claims_per_address';

/** A counter: who (`scope` + `subject`) in which period (a month, a day, or a fixed label). */
export interface CounterRef {
  scope: CounterScope;
  subject: string;
  period: string;
}

export interface CounterStore {
  /**
   * Adds `cost` only if the result stays within `limit`, in one atomic statement.
   * Returns the new count, or null when refused (nothing is added). With `hold`, the charge is
   * for a request holding that Idempotency-Key: its entry is durable once the charge is, so a
   * retry after a crash is not charged again (SQLite writes it in the charge's commit;
   * PostgreSQL wrote it when reserving).
   */
  admit(ref: CounterRef, cost: number, limit: number, hold?: IdempotencyHold): Promise<number | null>;
  /** Takes `cost` back (never below zero). Returns the new count. */
  refund(ref: CounterRef, cost: number): Promise<number>;
  read(ref: CounterRef): Promise<number>;
  /**
   * Adds `cost` to every counter, each within its own limit, in one transaction: all or none.
   * Returns the new counts in the order given, or null when any one refuses. `hold` as in admit.
   */
  admitAll(parts: CounterLimit[], cost: number, hold?: IdempotencyHold): Promise<number[] | null>;
  /** Takes `cost` back from every counter (never below zero) in one transaction; new counts in order. */
  refundAll(refs: CounterRef[], cost: number): Promise<number[]>;
}

export interface CounterLimit {
  ref: CounterRef;
  limit: number;
}

/** The creation alert as stored: its identity is its start time; it is on while `endsAt` > now. */
export interface AlertState {
  startedAt: number;
  endsAt: number;
}

/** The creation alert (docs/api.md, "Creation alert"), shared by every process on the database. */
export interface AlertStore {
  /**
   * Counts one anonymous key created at `at` (in per-second buckets) and returns how many were
   * created in the window of `windowSeconds` whole seconds ending with `at`'s second, this one
   * included. Its own count is committed before the window is summed, so of keys created
   * concurrently (even on other processes) the last one counted sees them all.
   */
  countAnonymousCreation(at: number, windowSeconds: number): Promise<number>;
  /**
   * In one conditional write: extends the alert on at `now` to `endsAt` (it keeps its identity),
   * or, when none is on, starts one identified by `now`. Returns the alert as it now stands.
   */
  extendAlert(now: number, endsAt: number): Promise<AlertState>;
  /** The latest alert, on or over; null if there never was one. */
  latestAlert(): Promise<AlertState | null>;
}

export interface DatasetMeta {
  kind: string;
  source: string;
  asOf: string;
  /** What asOf rests on (the file, the operator, the download ...); null for datasets stored before it was kept. */
  asOfBasis: AsOfBasis | null;
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

/** A card checkout (Stripe): which key a paid session went to, for the one-time reveal. */
export interface CardCheckout {
  sessionId: string;
  product: string;
  /** The key that received the purchase, once the payment is confirmed. */
  keyId: string | null;
  /** The purchase created that key (its secret is shown once on the success page). */
  newKey: boolean;
  createdAt: number;
  completedAt: number | null;
  /** The keyed hash of the token the browser that started the checkout holds (its cookie); null without one. */
  buyerTokenHash: string | null;
  /** When the bought key was first shown; null before. */
  revealedAt: number | null;
  /** The stored hash of the secret the success page last showed: the key has not been rotated since while it matches. */
  revealedKeyHash: string | null;
}

/**
 * A card-rail step done once: a Stripe event processed, a checkout fulfilled, a bought key
 * revealed. Stripe delivers events again, and a success page may be reloaded.
 */
export type OnceStep = 'stripe_event' | 'stripe_session' | 'stripe_reveal';

/**
 * The one Pro checkout a key may have open (docs/api.md, "POST /v1/card/checkout"): held from
 * before Stripe is asked for it until it completes or expires.
 */
export interface ProCheckoutHold {
  keyId: string;
  /** Names the request that holds it, so that only it records its session or frees it. */
  token: string;
  /** Null while Stripe is still being asked for the session. */
  sessionId: string | null;
  checkoutUrl: string | null;
  /** When the hold lapses by itself: the session's own expiry, once it is known. */
  expiresAt: number;
}

export type ProCheckoutClaim = { taken: true } | { taken: false; open: ProCheckoutHold | null };

export interface CheckoutStore {
  /** Marks the step done for `id` in one atomic statement: true the first time, false ever after. */
  markDone(step: OnceStep, id: string, at: number): Promise<boolean>;
  /** Takes a mark back, so that a step that failed half-way runs again when retried. */
  unmarkDone(step: OnceStep, id: string): Promise<void>;
  /** Records a started checkout (with the hash of its buyer's token, if any); a known session is left as it is. */
  recordCheckout(sessionId: string, product: string, at: number, buyerTokenHash?: string | null): Promise<void>;
  /** Records that the success page showed the bought key with the secret stored as `keyHash` (the first time: `at`). */
  recordReveal(sessionId: string, keyHash: string, at: number): Promise<void>;
  /** Records the key a paid checkout went to, only the first time; false when already recorded. */
  completeCheckout(sessionId: string, product: string, keyId: string, newKey: boolean, at: number): Promise<boolean>;
  checkoutBySession(sessionId: string): Promise<CardCheckout | null>;
  /**
   * Takes the key's one Pro checkout in one conditional write, when none is held or the one held
   * lapsed at `now` (or it is this same hold, sent again). Racing callers get exactly one `taken`;
   * the others the hold in place (null when it was freed in between).
   */
  holdProCheckout(hold: ProCheckoutHold, now: number): Promise<ProCheckoutClaim>;
  /** Records the session a hold opened and when it lapses, only while `token` still holds it. */
  openProCheckout(
    keyId: string,
    token: string,
    session: { sessionId: string; checkoutUrl: string; expiresAt: number },
  ): Promise<boolean>;
  /** Frees the key's hold when it is the one named by `tokenOrSession` (its token or its session id). */
  releaseProCheckout(keyId: string, tokenOrSession: string): Promise<void>;
  /** Records that a Pro subscription was bought for a key; a known subscription is left as it is. */
  linkSubscription(subscriptionId: string, keyId: string, at: number): Promise<void>;
  /** The Pro subscriptions ever bought for a key, newest first. */
  subscriptionsOf(keyId: string): Promise<string[]>;
}

/** A mailed code waiting for its answer; at most one per purpose and subject. */
export interface Challenge {
  purpose: 'generate' | 'claim';
  /** The address hash on generate, the key id on claim. */
  subject: string;
  emailHash: string;
  codeHash: string;
  createdAt: number;
  expiresAt: number;
}

export type AddressHolder = 'proved' | 'unproved' | null;

export interface ReleasedKey {
  id: string;
  createdAt: number;
}

export type CodeCheck = 'ok' | 'wrong_code' | 'expired' | 'no_challenge' | 'too_many_attempts';

/** Mailbox verification and the address rules (docs/api.md, "Generate with an address", "Mailbox verification"; docs/security.md). */
export interface MailboxStore {
  /** Starts a challenge, voiding any earlier one for the same purpose and subject. */
  putChallenge(challenge: Challenge): Promise<void>;
  /** Removes the challenge only while it is still the one with this code hash. */
  dropChallenge(purpose: Challenge['purpose'], subject: string, codeHash: string): Promise<void>;
  /**
   * Answers a code. The right one consumes the challenge (only one request can win it); a wrong
   * one counts an attempt in one conditional write, so parallel guesses never pass `maxAttempts`.
   * A challenge for another address is `no_challenge`.
   */
  tryCode(
    purpose: Challenge['purpose'],
    subject: string,
    emailHash: string,
    codeHash: string,
    now: number,
    maxAttempts: number,
    /** Told the attempts counted so far after a wrong code, so the refusal can say how many are left. */
    onWrongCode?: (attempts: number) => void,
  ): Promise<CodeCheck>;
  /** A free-tier key was created from this network at or after `since`. */
  freeKeyFromNetworkSince(network: string, since: number): Promise<boolean>;
  /**
   * Who holds the address through a live (not revoked) email or claimed key: `proved` when one
   * such key got it with a mailed code (a claim, or generate with `code`), `unproved` when the
   * address was only stated, null when no live free key holds it.
   */
  addressHolder(emailHash: string): Promise<AddressHolder>;
  /** Records that the address was given a key (an email key or a claim), with or without proof. */
  bindEmail(emailHash: string, keyId: string, at: number, proved: boolean): Promise<void>;
  /**
   * Takes the address from every live email key that holds it without proof, in one
   * transaction: each drops to `plan` (the anonymous plan), loses the address, keeps its id and
   * counters; their unproved bindings are forgotten. Returns the keys changed.
   */
  releaseUnproved(emailHash: string, plan: { tier: Tier; basis: Basis; limit: number }): Promise<ReleasedKey[]>;
  /** When the address was last given a key, or null. */
  lastEmailBinding(emailHash: string): Promise<number | null>;
}

/** One settled x402 payment. `id` names the signed authorization, so a replay has the same id. */
export interface PaymentRecord {
  id: string;
  network: string;
  asset: string;
  payer: string;
  payTo: string;
  /** Amount in the token's 6-decimal units, which for USDC is micro-USD. */
  amountMicros: number;
  txHash: string;
  resourceUrl: string;
  /** The API key presented with the payment, if any. */
  keyId: string | null;
  settledAt: number;
}

/**
 * A pack bought by x402 that the same request may recover for a while (docs/api.md, "POST
 * /v1/credits/buy/{pack}"): the payment, the key it bought, and a hash of what only that request
 * carried (who asked, its keyed Idempotency-Key, the route).
 */
export interface PackRecovery {
  paymentId: string;
  keyId: string;
  proof: string;
  expiresAt: number;
}

export interface PaymentStore {
  /** Inserts the payment in one atomic statement; false when `id` is already recorded (a replay). */
  recordPayment(payment: PaymentRecord): Promise<boolean>;
  /** Whether `id` was recorded: lets a replay be refused before the handler runs. */
  hasPayment(id: string): Promise<boolean>;
  /** Adds an x402 payment made while presenting a key; returns the key's new total (micro-USD). */
  addPaidMicros(keyId: string, micros: number): Promise<number>;
  /** Keeps a pack's recovery (the first for a payment stays), and drops those lapsed at `now`. */
  keepPackRecovery(recovery: PackRecovery, now: number): Promise<void>;
  /** The recovery of a payment, while it has not lapsed at `now`. */
  packRecovery(paymentId: string, now: number): Promise<PackRecovery | null>;
}

/** Calls a key was charged for on one UTC day: statistics for the usage chart, never billing. */
export interface DailyUse {
  day: string;
  used: number;
}

/** Per-day use of keys, written in aggregated batches off the admission's path. */
export interface DailyUsageStore {
  /** Adds each entry's `used` to its key's day, in one transaction. */
  addDailyUsage(entries: ({ keyId: string } & DailyUse)[]): Promise<void>;
  /** The key's days from `fromDay` to `toDay` (YYYY-MM-DD, both included) that have any use, oldest first. */
  dailyUsage(keyId: string, fromDay: string, toDay: string): Promise<DailyUse[]>;
}

/** The first answer to a request sent with an Idempotency-Key, as it went out (docs/api.md, "Safe retries"). */
export interface IdempotentAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** A first answer too large to keep (over 64 KiB): only that it was given is kept. */
export interface AnswerNotKept {
  status: number;
  contentType: null;
  body: null;
}

/** A request asking to be the first with its Idempotency-Key. */
export interface IdempotencyReservation {
  /** Whose keys these are: an API key's id, or the network of a call without one. */
  scope: string;
  /** The keyed hash of the Idempotency-Key (never the key itself: a client may send a secret as one). */
  key: string;
  /** Method, path and body digest: what a later request must match to be the same one. */
  fingerprint: string;
  /** Names this reservation, so that only its own request completes or releases it. */
  token: string;
  now: number;
  expiresAt: number;
  /** A reservation not completed since this time was left by a request that never finished: it may be taken over. */
  staleBefore: number;
}

/** The Idempotency-Key a request holds (its reservation's scope, keyed hash and token). */
export interface IdempotencyHold {
  scope: string;
  key: string;
  token: string;
}

export type IdempotencyClaim =
  | { state: 'reserved' }
  /**
   * Reserved, taking over the same request's entry that was never answered (its process died,
   * or it hung past the stale time): that first request may have been charged, so this one is not.
   */
  | { state: 'resumed' }
  | { state: 'in_progress' }
  | { state: 'mismatch' }
  | { state: 'done'; answer: IdempotentAnswer }
  /** Answered once, but the answer was too large to keep: it cannot be given again. */
  | { state: 'not_kept' };

export interface IdempotencyStore {
  /**
   * Reserves the key for this request when it is free, expired or left stale (`resumed` when
   * the entry left is this same request's, unanswered); otherwise says
   * who holds it (the same request answered, still in progress, or another request). Racing
   * callers get exactly one `reserved`: on PostgreSQL, on any number of processes, by one
   * conditional write; on SQLite, whose file serves one process, in that process's memory,
   * without a write (the entry is written with the charge, then completed with the answer).
   */
  reserveIdempotency(reservation: IdempotencyReservation): Promise<IdempotencyClaim>;
  /** Keeps the answer (or that one too large was given) under the reservation, only while `token` still holds it. */
  completeIdempotency(
    scope: string,
    key: string,
    token: string,
    answer: IdempotentAnswer | AnswerNotKept,
  ): Promise<boolean>;
  /** Frees a reservation not completed, only while `token` still holds it. */
  releaseIdempotency(scope: string, key: string, token: string): Promise<void>;
  /** Deletes every entry expired at `now`; returns how many. */
  purgeIdempotency(now: number): Promise<number>;
}

export interface Store
  extends KeyStore,
    DailyUsageStore,
    PaymentStore,
    CounterStore,
    DatasetStore,
    SettingStore,
    CheckoutStore,
    MailboxStore,
    AlertStore,
    IdempotencyStore {
  readonly engine: 'sqlite' | 'postgres';
  ping(): Promise<void>;
  /** The last write failed because the store could not take it (disk full, database down). */
  writeFailing(): boolean;
  close(): Promise<void>;
}
