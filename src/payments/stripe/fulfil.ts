/**
 * What a confirmed card payment does to keys. Every step is safe to repeat, because a webhook
 * that failed half-way is delivered again by Stripe: keys are created under an id chosen at
 * checkout, and plan changes are conditional on the key's revision (store.changePlan).
 */
import type { Clock } from '../../clock.ts';
import type { KeyService } from '../../keys/service.ts';
import { FREE_TIERS, PLAN } from '../../plans.ts';
import { changePlanIf, claimByPayment } from '../claim.ts';
import type { PlanChange, Store } from '../../store/types.ts';
import type { FallbackPlan, KeyRow, Tier } from '../../records.ts';

/** Keys bought by card belong to no network: they must not count against free-key limits. */
const CARD_NETWORK = 'card';

export class CardFulfilment {
  constructor(
    private readonly store: Store,
    private readonly keys: KeyService,
    private readonly clock: Clock,
  ) {}

  /**
   * A new key whose secret nobody knows: the success page reveals it once by rotating it.
   * Keys born for Pro start as `anonymous`, the tier they fall back to when Pro ends.
   */
  async ensureNewKey(id: string, grant: { credits: number } | 'pro'): Promise<void> {
    if (await this.store.keyById(id)) return;
    const base = { id, network: CARD_NETWORK, emailHash: null, alertBorn: false };
    if (grant === 'pro') await this.keys.insert({ ...base, tier: 'anonymous' });
    else await this.keys.insert({ ...base, tier: 'credits', limit: grant.credits, lifetimePeriod: `credits:${id}` });
  }

  /** A pack bought while presenting an anonymous key claims it (payments/claim.ts). */
  claimByPack(keyId: string): Promise<boolean> {
    return claimByPayment(this.store, this.clock, keyId);
  }

  /** Pro on a free key, remembering its plan to fall back to. A Pro key only takes a newer subscription id. */
  startPro(keyId: string, subscriptionId: string): Promise<boolean> {
    return this.changeIf(keyId, (key) => {
      if (key.tier === 'pro') return key.subscriptionId === subscriptionId ? null : { ...proPlan(), subscriptionId };
      if (!FREE_TIERS.has(key.tier)) return null;
      return { ...proPlan(), fallback: planOf(key), subscriptionId, alertBorn: false };
    });
  }

  /**
   * Pro ends (or goes unpaid): back to the exact free plan the key had, a lifetime claim with its
   * counter included. Only the subscription that gave Pro can take it away. After an end that
   * Stripe never reverses the subscription id is dropped; after `unpaid` it is kept so that
   * paying the invoice can bring Pro back (resumePro).
   */
  endPro(keyId: string, subscriptionId: string, final: boolean): Promise<boolean> {
    return this.changeIf(keyId, (key) => {
      if (key.tier !== 'pro' || key.subscriptionId !== subscriptionId) return null;
      const back =
        key.fallback && FREE_TIERS.has(key.fallback.tier)
          ? key.fallback
          : { tier: 'anonymous' as const, ...PLAN.anonymous, lifetimePeriod: null };
      return { ...back, fallback: null, subscriptionId: final ? null : subscriptionId };
    });
  }

  /**
   * A subscription of the key that is paid (again): Pro on the key, if it is on its free plan.
   * Whichever subscription it had before, one that the buyer pays for gives Pro (an unpaid one
   * paid again, or a second one after the first ended).
   */
  resumePro(keyId: string, subscriptionId: string): Promise<boolean> {
    return this.changeIf(keyId, (key) =>
      key.tier === 'pro' || !FREE_TIERS.has(key.tier) ? null : { ...proPlan(), fallback: planOf(key), subscriptionId },
    );
  }

  /** Pro stays, resting on another subscription of the key that still runs, when the one it rested on stops. */
  movePro(keyId: string, from: string, to: string): Promise<boolean> {
    return this.changeIf(keyId, (key) =>
      key.tier !== 'pro' || key.subscriptionId !== from ? null : { ...proPlan(), subscriptionId: to },
    );
  }

  private changeIf(keyId: string, change: (key: KeyRow) => PlanChange | null): Promise<boolean> {
    return changePlanIf(this.store, keyId, change);
  }
}

const proPlan = (): PlanChange & { tier: Tier } => ({ tier: 'pro', ...PLAN.pro, lifetimePeriod: null });

const planOf = (key: KeyRow): FallbackPlan => ({
  tier: key.tier,
  basis: key.basis,
  limit: key.limit,
  lifetimePeriod: key.lifetimePeriod,
});
