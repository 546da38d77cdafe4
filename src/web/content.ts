/** What the pages say, derived from the one price table (src/plans.ts): never a second copy of a number. */
import { costOf } from '../api/catalogue.ts';
import { documentedPath } from '../api/declaration.ts';
import { API_ROUTES } from '../api/index.ts';
import { packsOnSale } from '../payments/offers.ts';
import { LIMITS, PACKS, PRO_PRICE_USD_PER_MONTH } from '../plans.ts';
import { thousands } from '../thousands.ts';

export const usd = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 4 })}`;

export const FREE = {
  trial: LIMITS.trialPerDay,
  anonymous: LIMITS.anonymousPerMonth,
  claimed: LIMITS.freePerMonth,
  keysPerDay: LIMITS.keysPerNetworkPerDay,
};

/** The metered data routes, in their declarations' order (src/api/index.ts). */
const METERED = API_ROUTES.filter((route) => route.access.meter !== undefined);

/** The data routes the home page lists, each described by its declaration's purpose. */
export const ROUTES = METERED.map((route) => ({
  method: route.method,
  path: documentedPath(route.url),
  what: route.guide.purpose ?? '',
}));

/** Each metered route's x402 price (a batch's per IBAN). */
const X402_ROUTES = METERED.map((route) => {
  const cost = costOf(route);
  return {
    route: `${route.method} ${documentedPath(route.url)}${cost.perIban ? ' (per IBAN)' : ''}`,
    price: cost.x402Usd ?? 0,
  };
});

export function pricing(rails: { card: boolean; x402: boolean }) {
  const prices = X402_ROUTES.map((r) => r.price);
  const packNote = rails.card
    ? undefined
    : rails.x402
      ? 'Card payment is not enabled on this server. Buy packs in USDC with x402.'
      : 'Card payment is not enabled on this server.';
  return {
    card: rails.card,
    x402: rails.x402,
    plans: [
      {
        name: 'Anonymous key',
        price: '$0',
        per: '',
        volume: `${thousands(LIMITS.anonymousPerMonth)} requests a month`,
        features: ['No address needed', 'Every data route', 'Resets on the 1st'],
        href: '/keys/new',
        action: 'Get a key',
      },
      {
        name: 'Claimed key',
        price: '$0',
        per: '',
        volume: `${thousands(LIMITS.freePerMonth)} requests a month`,
        features: ['Confirm an e-mail address once', 'Same key, higher quota', 'Resets on the 1st'],
        href: '/claim',
        action: 'Claim a key',
      },
      {
        name: 'Pro',
        price: usd(PRO_PRICE_USD_PER_MONTH),
        per: '/ month',
        volume: `${thousands(LIMITS.proPerMonth)} requests a month`,
        features: ['Every data route, no attribution', 'Resets on the 1st', 'Cancel any time from the usage page'],
        featured: true,
        product: 'pro',
        action: 'Subscribe by card',
        unavailable: packNote ? 'Card payment is not enabled on this server, so Pro cannot be bought here.' : '',
      },
    ],
    packs: PACKS.map((p) => ({
      pack: p.pack,
      product: `pack_${p.pack}`,
      credits: thousands(p.credits),
      price: usd(p.priceUsd),
      perRequest: usd(p.priceUsd / p.credits),
    })),
    packNote,
    x402Range: `${usd(Math.min(...prices))} to ${usd(Math.max(...prices))}`,
    x402Prices: X402_ROUTES.map((r) => ({ route: r.route, price: usd(r.price) })),
  };
}

/**
 * What /keys/new offers after a network's last free key of the day: a credit pack only when this
 * server sells one (a card or x402 rail is on, as /pricing says), else what works without one.
 */
export function keysNew(rails: { card: boolean; x402: boolean }) {
  return { packsOnSale: packsOnSale(rails) };
}

export const TERMS = [
  'Free keys (anonymous, e-mail and claimed) are for building and running your software. One person or organisation should not hold several free keys to multiply the quota.',
  'When results obtained with a free key are shown to people, show "Powered by mod97" with a link to this service. Results kept in a backend owe nothing.',
  'Keep your key secret. Send it only in the Authorization or X-API-Key header.',
  'Answers state their sources and dates; they are not legal or compliance advice. The compliance check screens banks and countries, not names of people.',
  'Paid credits never expire. Refused calls (4xx and 5xx answers) are not charged.',
];
