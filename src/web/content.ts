/** What the pages say, derived from the one price table (src/plans.ts): never a second copy of a number. */
import { LIMITS, PACKS, PRO_PRICE_USD_PER_MONTH, X402_PRICES_USD } from '../plans.ts';
import { guideOf } from '../routes/guides.ts';

export const count = (n: number) => n.toLocaleString('en-US');
export const usd = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 3 })}`;

export const FREE = { trial: LIMITS.trialPerDay, anonymous: LIMITS.anonymousPerMonth, claimed: LIMITS.freePerMonth };

/** The data routes the home page lists, each described by its one guide (src/routes/guides.ts). */
export const ROUTES = [
  ['POST', '/v1/iban/validate'],
  ['POST', '/v1/iban/batch'],
  ['POST', '/v1/iban/from-account'],
  ['POST', '/v1/iban/extract'],
  ['GET', '/v1/bic/:code'],
  ['POST', '/v1/iban/compliance'],
  ['GET', '/v1/ch/clearing/:iid'],
].map(([method, url]) => ({
  method,
  path: url!.replace(/:(\w+)/g, '{$1}'),
  what: guideOf(method!, url!)?.purpose ?? '',
}));

const X402_ROUTES: { route: string; price: number }[] = [
  { route: 'POST /v1/iban/validate', price: X402_PRICES_USD.validate },
  { route: 'POST /v1/iban/batch (per IBAN)', price: X402_PRICES_USD.batchPerIban },
  { route: 'POST /v1/iban/from-account', price: X402_PRICES_USD.fromAccount },
  { route: 'POST /v1/iban/extract', price: X402_PRICES_USD.extract },
  { route: 'GET /v1/bic/{code}', price: X402_PRICES_USD.bic },
  { route: 'POST /v1/iban/compliance', price: X402_PRICES_USD.compliance },
  { route: 'GET /v1/ch/clearing/{iid}', price: X402_PRICES_USD.clearing },
];

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
        volume: `${count(LIMITS.anonymousPerMonth)} requests a month`,
        features: ['No address needed', 'Every data route', 'Resets on the 1st'],
        href: '/keys/new',
        action: 'Get a key',
      },
      {
        name: 'Claimed key',
        price: '$0',
        per: '',
        volume: `${count(LIMITS.freePerMonth)} requests a month`,
        features: ['Confirm an e-mail address once', 'Same key, higher quota', 'Resets on the 1st'],
        href: '/claim',
        action: 'Claim a key',
      },
      {
        name: 'Pro',
        price: usd(PRO_PRICE_USD_PER_MONTH),
        per: '/ month',
        volume: `${count(LIMITS.proPerMonth)} requests a month`,
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
      credits: count(p.credits),
      price: usd(p.priceUsd),
      perRequest: usd(p.priceUsd / p.credits),
    })),
    packNote,
    x402Range: `${usd(Math.min(...prices))} to ${usd(Math.max(...prices))}`,
    x402Prices: X402_ROUTES.map((r) => ({ route: r.route, price: usd(r.price) })),
  };
}

export const TERMS = [
  'Free keys (anonymous, e-mail and claimed) are for building and running your software. One person or organisation should not hold several free keys to multiply the quota.',
  'When results obtained with a free key are shown to people, show "Powered by mod97" with a link to this service. Results kept in a backend owe nothing.',
  'Keep your key secret. Send it only in the Authorization or X-API-Key header.',
  'Answers state their sources and dates; they are not legal or compliance advice. The compliance check screens banks and countries, not names of people.',
  'Paid credits never expire. Refused calls (4xx and 5xx answers) are not charged.',
];
