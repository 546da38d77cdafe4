/** STRIPE_* environment → the card rail's settings, or null when the rail is off. */
import { DomainError } from '../../errors.ts';

export type PackProduct = 'pack_1k' | 'pack_5k' | 'pack_25k';
export type CardProduct = PackProduct | 'pro';
export const CARD_PRODUCTS: readonly CardProduct[] = ['pack_1k', 'pack_5k', 'pack_25k', 'pro'];

export interface StripeSettings {
  secretKey: string;
  /** Required with the secret key: without it no payment could ever be verified and credited. */
  webhookSecret: string;
  /** Stripe price ids; a product without one is sold with inline `price_data` from src/plans.ts. */
  prices: Partial<Record<CardProduct, string>>;
  /** Where the SDK sends API calls; null means Stripe's own servers. Set for stripe-mock or a test double. */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

const PRICE_VARIABLES: Record<CardProduct, string> = {
  pack_1k: 'STRIPE_PRICE_PACK_1K',
  pack_5k: 'STRIPE_PRICE_PACK_5K',
  pack_25k: 'STRIPE_PRICE_PACK_25K',
  pro: 'STRIPE_PRICE_PRO',
};

export function readStripeConfig(env: Record<string, string | undefined>): StripeSettings | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!webhookSecret)
    throw new DomainError(
      'invalid_config',
      'STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: the card rail (Stripe) needs both. Set STRIPE_WEBHOOK_SECRET, or unset STRIPE_SECRET_KEY to leave the rail off.',
    );
  const prices: Partial<Record<CardProduct, string>> = {};
  for (const product of CARD_PRODUCTS) {
    const id = env[PRICE_VARIABLES[product]]?.trim();
    if (!id) continue;
    if (!id.startsWith('price_')) {
      throw new DomainError(
        'invalid_config',
        `${PRICE_VARIABLES[product]} must be a Stripe price id (price_...), got "${id}"`,
      );
    }
    prices[product] = id;
  }
  return {
    secretKey,
    webhookSecret,
    prices,
    api: readApiBase(env.STRIPE_API_BASE),
  };
}

function readApiBase(value: string | undefined): StripeSettings['api'] {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DomainError(
      'invalid_config',
      `STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, got "${value}"`,
    );
  }
  const protocol = url.protocol.replace(':', '');
  if (protocol !== 'http' && protocol !== 'https') {
    throw new DomainError('invalid_config', 'STRIPE_API_BASE must start with http:// or https://');
  }
  return { host: url.hostname, port: Number(url.port || (protocol === 'https' ? 443 : 80)), protocol };
}
