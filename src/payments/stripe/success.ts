/**
 * The success page's answer. A bought key was created by the webhook with a secret nobody
 * knows; the first visit reveals it by rotating it, once per checkout (store.markDone). Only
 * the buyer's page reading it uses that display up: HEAD and prefetches look without touching
 * it, and the browser that saw it may see it again for 10 minutes (reveal-cookie.ts): the same
 * secret with the cookie the display set, or, when that display was lost on the way, a new one
 * with the token the browser got with the checkout.
 */
import { DomainError } from '../../errors.ts';
import type { CardContext } from './context.ts';
import { openReveal, REVEAL_AGAIN_MS, sealReveal } from './reveal-cookie.ts';

export interface Visit {
  /** False for HEAD and prefetches: the answer's status only, the one-time display left unused. */
  consume: boolean;
  /** The reveal cookie this browser sent, if any. */
  cookie?: string;
  /** The token this browser got with the checkout (BUYER_COOKIE), if any. */
  buyerToken?: string;
}

export interface SuccessAnswer {
  outcome: CheckoutOutcome;
  /** Set on the first display: the cookie that lets this browser see the key again. */
  setCookie?: { value: string; maxAgeSeconds: number };
}

export type CheckoutOutcome =
  | { status: 'pending'; session_id: string; message: string }
  | {
      status: 'complete';
      session_id: string;
      product: string;
      /** Only on the first visit, and only for a key the purchase created. */
      api_key?: string;
      key_prefix: string;
      tier: string;
      basis: string;
      limit: number;
      message: string;
    };

export async function checkoutOutcome(ctx: CardContext, sessionId: string, visit: Visit): Promise<SuccessAnswer> {
  const checkout = await ctx.store.checkoutBySession(sessionId);
  if (!checkout) throw new DomainError('checkout_not_found', 'No checkout with this session id was started here.');
  if (!checkout.keyId) {
    return {
      outcome: {
        status: 'pending',
        session_id: sessionId,
        message: 'Your payment is being confirmed. Reload this page in a few seconds.',
      },
    };
  }
  const key = await ctx.store.keyById(checkout.keyId);
  if (!key) throw new Error(`checkout ${sessionId} points to a missing key`);
  const summary = {
    status: 'complete' as const,
    session_id: sessionId,
    product: checkout.product,
    tier: key.tier,
    basis: key.basis,
    limit: key.limit,
  };
  if (!checkout.newKey) {
    return {
      outcome: {
        ...summary,
        key_prefix: key.keyPrefix,
        message: `Your key ${key.keyPrefix}… now has ${key.tier === 'pro' ? 'Pro' : key.tier}. Keep using it as before.`,
      },
    };
  }
  if (!visit.consume) {
    return {
      outcome: {
        ...summary,
        key_prefix: key.keyPrefix,
        message: 'Your key is ready. Open this page to see it: it is shown once.',
      },
    };
  }
  const derive = (label: string) => ctx.keys.hash(label);
  const now = ctx.clock();
  /** The rotated key shown (its hash recorded as the one revealed), and the cookie that lets this browser see it again until `until`. */
  const reveal = async (
    { secret, prefix, keyHash }: { secret: string; prefix: string; keyHash: string },
    message: string,
    until: number,
  ) => {
    await ctx.store.recordReveal(sessionId, keyHash, now);
    return {
      outcome: { ...summary, api_key: secret, key_prefix: prefix, message },
      setCookie: {
        value: sealReveal(derive, sessionId, secret, until),
        maxAgeSeconds: Math.ceil((until - now) / 1000),
      },
    };
  };
  if (!(await ctx.store.markDone('stripe_reveal', sessionId, now))) {
    // the same browser, within 10 minutes of the first display, and the key not rotated since
    const again = openReveal(derive, sessionId, visit.cookie, now);
    if (again && !key.revokedAt && ctx.keys.hash(again) === key.keyHash) {
      return {
        outcome: {
          ...summary,
          api_key: again,
          key_prefix: key.keyPrefix,
          message:
            'Store this key now: this browser can see it again only for 10 minutes after it was first shown. Send it as Authorization: Bearer <api_key>.',
        },
      };
    }
    // the display was lost: the browser that started the checkout, within 10 minutes of the first
    // display, the key not rotated since by whoever holds it
    const { buyerTokenHash, revealedAt, revealedKeyHash } = checkout;
    const buyer =
      visit.buyerToken !== undefined && buyerTokenHash !== null && ctx.keys.hash(visit.buyerToken) === buyerTokenHash;
    const recent = revealedAt !== null && now < revealedAt + REVEAL_AGAIN_MS;
    if (buyer && recent && !key.revokedAt && key.keyHash === revealedKeyHash) {
      const rotated = await ctx.keys.rotate(key).catch(() => {
        throw alreadyShown(key.keyPrefix);
      });
      return reveal(
        rotated,
        'Store this key now. It is shown again with a new secret, as its first display did not reach you: the secret shown before no longer works. Send it as Authorization: Bearer <api_key>.',
        revealedAt + REVEAL_AGAIN_MS,
      );
    }
    throw alreadyShown(key.keyPrefix);
  }
  try {
    return await reveal(
      await ctx.keys.rotate(key),
      'Store this key now: it is shown only once. Send it as Authorization: Bearer <api_key>.',
      now + REVEAL_AGAIN_MS,
    );
  } catch (err) {
    await ctx.store.unmarkDone('stripe_reveal', sessionId);
    throw err;
  }
}

const alreadyShown = (keyPrefix: string) =>
  new DomainError(
    'key_already_shown',
    `The key bought in this checkout (${keyPrefix}…) was already shown and is not shown again here. The browser that started the checkout can see it again within 10 minutes of its first display. If it may have leaked, replace it with POST /v1/keys/rotate, sending the key as Authorization: Bearer <key>.`,
    { key_prefix: keyPrefix },
  );
