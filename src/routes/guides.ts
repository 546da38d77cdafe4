/**
 * What each route is for, written once: the OpenAPI summary and description (src/http/openapi.ts)
 * and the route catalogue that agents read (src/routes/catalogue.ts) both take it from here.
 */
interface Guide {
  /** One line: the OpenAPI summary. */
  title: string;
  /** What the route is for, for agents (llms.txt, MCP tools, x402 discovery); routes without one are not listed for them. */
  purpose?: string;
  /** An input that works: the JSON body, or the path parameters. */
  example?: Record<string, unknown>;
}

/** What each route is for, in the words an agent or a developer acts on; keyed `METHOD /path` (Fastify's pattern). */
const GUIDES: Record<string, Guide> = {
  'POST /v1/iban/validate': {
    title: 'Validate one IBAN (no key needed within the daily trial)',
    purpose:
      'Validates one IBAN (country, length, structure, ISO 7064 checksum, national check digits) and names its bank, SEPA reach and, for a typo, the valid IBANs one edit away.',
    example: { iban: 'DE89370400440532013000' },
  },
  'POST /v1/iban/batch': {
    title: 'Validate many IBANs, one request of quota per IBAN',
    purpose: 'Validates 1 to 1000 IBANs in one call; results come in request order. Admitted whole or refused whole.',
    example: { ibans: ['DE89370400440532013000', 'GB82WEST12345698765432'] },
  },
  'POST /v1/iban/from-account': {
    title: 'Build and validate the IBAN of a domestic account number',
    purpose: 'Builds the IBAN of a domestic account (country, bank code, branch code, account) and validates it.',
    example: { country: 'DE', bank_code: '37040044', account: '532013000' },
  },
  'POST /v1/iban/extract': {
    title: 'Find and validate every IBAN in a text (invoice, e-mail, scan)',
    purpose:
      'Finds every IBAN in up to 20,000 characters of text (electronic or print form, any case, in tables and sentences), with its offsets and its validate answer; repairs one O/0, I/1, S/5, B/8 or Z/2 confusion of scanned text.',
    example: {
      text: 'Bitte überweisen Sie den Betrag auf IBAN DE89 3704 0044 0532 0130 00 (Commerzbank). Merci de payer sur FR14 2004 1010 0505 0001 3M02 606.',
    },
  },
  'GET /v1/bic/:code': {
    title: 'The bank behind a BIC',
    purpose: 'Looks up a BIC (SWIFT code): the institution, its office and address, LEI, and the dated sources.',
    example: { code: 'DEUTDEFF' },
  },
  'POST /v1/iban/compliance': {
    title: 'Screen an IBAN or a BIC against sanctions and country lists',
    purpose:
      'Screens the bank of an IBAN or a BIC: sanctions lists, FATF and EU high-risk country lists, SEPA reach; a risk score with its flags. Bank-level, not name screening.',
    example: { iban: 'DE89370400440532013000' },
  },
  'GET /v1/ch/clearing/:iid': {
    title: 'Swiss and Liechtenstein clearing entry of an IID',
    purpose: 'Looks up a Swiss or Liechtenstein bank clearing number (IID) in the SIX BankMaster data.',
    example: { iid: '100' },
  },
  'GET /v1/keys/usage': {
    title: 'Quota used and left for the key sent (or the trial without one); free',
    purpose: "Shows the key's quota (used, limit, remaining, basis) or, without a key, the network's no-key trial.",
  },
  'POST /v1/keys/generate': {
    title: 'Create a free key (anonymous, or with an e-mail address)',
    purpose: 'Creates a free API key (25 requests a month; 200 with a proved e-mail address).',
  },
  'POST /v1/keys/claim': {
    title: 'Claim an anonymous key with a mailed code (200 a month)',
    purpose: 'Raises an anonymous key to 200 requests a month by a code mailed to an address.',
  },
  'POST /v1/keys/rotate': {
    title: 'Replace the key with a new secret; tier, quota and counters are kept',
    purpose: 'Replaces the key with a new secret; quota and counters carry over.',
  },
  'POST /v1/credits/buy/1k': {
    title: 'Buy 1,000 credits by x402',
    purpose: 'Buys a pack of 1,000 credits with x402; answers a new credits key.',
  },
  'POST /v1/credits/buy/5k': {
    title: 'Buy 5,000 credits by x402',
    purpose: 'Buys a pack of 5,000 credits with x402; answers a new credits key.',
  },
  'POST /v1/credits/buy/25k': {
    title: 'Buy 25,000 credits by x402',
    purpose: 'Buys a pack of 25,000 credits with x402; answers a new credits key.',
  },
  'GET /v1/keys/usage/daily': { title: 'Calls per day over the current period (statistics for charts; free)' },
  'POST /v1/card/cancel': { title: 'Cancel the Pro subscription of the key sent (at the end of the paid period)' },
  'POST /v1/card/checkout': { title: 'Start a Stripe Checkout for a credit pack or Pro' },
  'GET /v1/card/success': { title: 'Outcome of a card checkout; reveals a new key once' },
  'POST /v1/card/webhook': { title: "Stripe's signed event deliveries" },
};

export function guideOf(method: string, url: string): Guide | undefined {
  return GUIDES[`${method} ${url}`];
}
