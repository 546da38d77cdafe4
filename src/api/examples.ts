/**
 * One example request and answer per route, named by its declaration (`example`, declaration.ts):
 * the OpenAPI document, the /docs page (curl, JavaScript and Python) and docs/api.md all show these.
 * The answers are real answers of the service, with the base URL and the key replaced.
 */
import type { RouteExample } from './route-example.ts';

/** Parts that several example answers share, as the service gives them for DE89 3704 0044 0532 0130 00. */
const ATTRIBUTION = {
  text: 'Powered by mod97',
  url: 'https://mod97.example',
  note: 'Free-tier results shown to people must display "Powered by mod97" with this link. Results kept in a backend owe nothing.',
};
const COMMERZBANK = {
  bic: 'COBADEFFXXX',
  name: 'Commerzbank',
  city: 'Frankfurt am Main',
  source: 'bankdata-germany@2.2602.0 (Deutsche Bundesbank BLZ)',
  as_of: '2026-09-07',
};
const SEPA_DE = {
  country: 'DE',
  member: true,
  schemes: ['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B'],
  basis: 'country',
  bic: null,
  vop: null,
  source:
    "EPC409-09 List of countries in the SEPA schemes' geographical scope (checked against the EPC register of participants, 2025-09-08)",
  as_of: '2025-09-08',
};

/** The validate answer for DE89 3704 0044 0532 0130 00, which several routes' answers include. */
const DE89_ANSWER = {
  iban: 'DE89370400440532013000',
  formatted: 'DE89 3704 0044 0532 0130 00',
  valid: true,
  country: { code: 'DE', name: 'Germany' },
  check_digits: '89',
  bban: { bank_code: '37040044', branch_code: null, account_number: '0532013000' },
  qr_iban: false,
  errors: [],
  suggestions: [],
  bank: COMMERZBANK,
  sepa: SEPA_DE,
  data_version: '2026-09-07.bdddf48d',
};

export const generate: RouteExample = {
  method: 'POST',
  path: '/v1/keys/generate',
  body: {},
  key: false,
  status: 201,
  answer: {
    api_key: 'ifk_3ca02f5e66a60d09ef4703194a5009e7a27d362619cb3be79a180acd52726a79',
    key_prefix: 'ifk_3ca0',
    tier: 'anonymous',
    basis: 'monthly',
    monthly_limit: 25,
    message: 'Store this key now: it is shown only once. Send it as Authorization: Bearer <api_key>.',
    terms_url: 'https://mod97.example/terms',
    claim_url: 'https://mod97.example/v1/keys/claim',
  },
  js: 'await mod97.generateKey()',
  py: 'mod97.generate_key()',
};

export const usage: RouteExample = {
  method: 'GET',
  path: '/v1/keys/usage',
  key: true,
  status: 200,
  answer: {
    used: 6,
    limit: 25,
    remaining: 19,
    basis: 'monthly',
    tier: 'anonymous',
    month: '2026-11',
    key_prefix: 'ifk_47a5',
    claim: {
      url: 'https://mod97.example/v1/keys/claim',
      raises_limit_to: 200,
      first_call_made: true,
      methods: ['email_code'],
      paid_so_far_usd: 0,
      paid_needed_usd: 1,
    },
  },
  js: 'await mod97.usage()',
  py: 'mod97.usage()',
};

export const rotate: RouteExample = {
  method: 'POST',
  path: '/v1/keys/rotate',
  key: true,
  status: 200,
  answer: {
    api_key: 'ifk_9f1c0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e0b7e',
    key_prefix: 'ifk_9f1c',
    previous_key_prefix: 'ifk_47a5',
    tier: 'anonymous',
    basis: 'monthly',
    monthly_limit: 25,
    message:
      'Store this new key now: it is shown only once. The previous key no longer works; quota and counters carry over.',
  },
  js: 'await mod97.rotate()',
  py: 'mod97.rotate()',
};

export const usageDaily: RouteExample = {
  method: 'GET',
  path: '/v1/keys/usage/daily',
  key: true,
  status: 200,
  answer: {
    key_prefix: 'ifk_47a5',
    basis: 'monthly',
    from: '2026-11-01',
    to: '2026-11-03',
    total: 6,
    days: [
      { day: '2026-11-01', used: 0 },
      { day: '2026-11-02', used: 0 },
      { day: '2026-11-03', used: 6 },
    ],
  },
  py: 'mod97.daily_usage()',
};

export const claim: RouteExample = {
  method: 'POST',
  path: '/v1/keys/claim',
  body: { email: 'ada@company.example' },
  key: true,
  status: 202,
  answer: {
    status: 'code_sent',
    key_prefix: 'ifk_3ca0',
    expires_in_minutes: 15,
    message:
      'We mailed a 6-digit code to ada@company.example. Send it within 15 minutes as `code`, with the same `email`, to claim this key.',
  },
  js: "await mod97.claim({ email: 'ada@company.example' })",
  py: 'mod97.claim(email="ada@company.example")',
};

export const validate: RouteExample = {
  method: 'POST',
  path: '/v1/iban/validate',
  body: { iban: 'DE89 3704 0044 0532 0130 00' },
  key: true,
  status: 200,
  answer: {
    ...DE89_ANSWER,
    national_check: 'passed',
    suggestion_details: [],
    attribution: ATTRIBUTION,
  },
  js: "await mod97.validate('DE89 3704 0044 0532 0130 00')",
  py: 'mod97.validate("DE89 3704 0044 0532 0130 00")',
};

export const batch: RouteExample = {
  method: 'POST',
  path: '/v1/iban/batch',
  body: { ibans: ['DE89370400440532013000', 'GB82WEST12345698765431'] },
  key: true,
  status: 200,
  answer: {
    count: 2,
    valid: 1,
    invalid: 1,
    by_country: { DE: 1, GB: 1 },
    results: [
      {
        ...DE89_ANSWER,
        national_check: 'passed',
      },
      {
        iban: 'GB82WEST12345698765431',
        formatted: 'GB82 WEST 1234 5698 7654 31',
        valid: false,
        country: { code: 'GB', name: 'United Kingdom' },
        check_digits: '82',
        bban: { bank_code: 'WEST', branch_code: '123456', account_number: '98765431' },
        qr_iban: false,
        errors: [
          {
            code: 'checksum_failed',
            message: 'The IBAN check digits do not match (ISO 7064 mod 97-10): probably a typing error.',
          },
        ],
        suggestions: ['GB82WEST12345698765432', 'GB12WEST12345698765431', 'GB82WQST12345698765431'],
        bank: null,
        sepa: { ...SEPA_DE, country: 'GB' },
        data_version: '2026-09-07.bdddf48d',
      },
    ],
    attribution: ATTRIBUTION,
  },
  js: "await mod97.batch(['DE89370400440532013000', 'GB82WEST12345698765431'])",
  py: 'mod97.batch(["DE89370400440532013000", "GB82WEST12345698765431"])',
};

export const fromAccount: RouteExample = {
  method: 'POST',
  path: '/v1/iban/from-account',
  body: { country: 'DE', bank_code: '37040044', account: '0532013000' },
  key: true,
  status: 200,
  answer: {
    ...DE89_ANSWER,
    constructed_from: {
      country: 'DE',
      bank_code: '37040044',
      branch_code: null,
      account: '0532013000',
      national_check_digits: null,
    },
    national_check: 'passed',
    iban_rule: {
      rule: null,
      standard: null,
      message:
        "No loaded source names this bank's Bundesbank IBAN rule (import the Bundesbank BLZ file to know it): the IBAN is the standard construction; confirm it with the account holder.",
    },
    attribution: ATTRIBUTION,
  },
  js: "await mod97.fromAccount({ country: 'DE', bank_code: '37040044', account: '0532013000' })",
  py: 'mod97.from_account(country="DE", bank_code="37040044", account="0532013000")',
};

export const bic: RouteExample = {
  method: 'GET',
  path: '/v1/bic/COBADEFFXXX',
  key: true,
  status: 200,
  answer: {
    bic: 'COBADEFFXXX',
    bic8: 'COBADEFF',
    bic11: 'COBADEFFXXX',
    match: 'exact',
    name: 'COMMERZBANK AG',
    city: 'Frankfurt am Main',
    address: 'Kaiserstrasse 16',
    postcode: '60261',
    country: { code: 'DE', name: 'Germany' },
    branch: { code: 'XXX', primary_office: true },
    lei: null,
    test_bic: false,
    sources: [
      { name: 'SIX BankMaster V3 created 2025-09-01 16:30', as_of: '2025-09-02' },
      { name: 'bankdata-germany@2.2602.0 (Deutsche Bundesbank BLZ)', as_of: '2026-09-07' },
    ],
    sepa: SEPA_DE,
    attribution: ATTRIBUTION,
  },
  js: "await mod97.bic('COBADEFFXXX')",
  py: 'mod97.bic("COBADEFFXXX")',
};

export const compliance: RouteExample = {
  method: 'POST',
  path: '/v1/iban/compliance',
  body: { iban: 'DE89370400440532013000' },
  key: true,
  status: 200,
  answer: {
    subject: {
      iban: 'DE89370400440532013000',
      iban_valid: true,
      bic: 'COBADEFFXXX',
      country: 'DE',
      bank: COMMERZBANK,
    },
    sanctions: {
      screened: true,
      stale: true,
      explanation:
        'The BIC is on none of the loaded lists (OFAC SDN as of 2024-05-03). The newest list is more than 30 days old: designations made since 2024-05-03 are not screened.',
      bic: 'COBADEFFXXX',
      lists: [{ name: 'OFAC SDN', as_of: '2024-05-03' }],
      matches: [],
    },
    country_lists: [
      {
        id: 'fatf_call_for_action',
        title: 'FATF high-risk jurisdictions subject to a call for action ("black list")',
        listed: false,
        source: 'FATF public statement, plenary of 17-19 June 2026',
        as_of: '2026-06-19',
      },
      {
        id: 'fatf_increased_monitoring',
        title: 'FATF jurisdictions under increased monitoring ("grey list")',
        listed: false,
        source: 'FATF "Jurisdictions under Increased Monitoring", plenary of 17-19 June 2026',
        as_of: '2026-06-19',
      },
      {
        id: 'eu_high_risk_third_countries',
        title: 'EU high-risk third countries (AML/CFT)',
        listed: false,
        source: 'Commission Delegated Regulation (EU) 2016/1675 as amended, latest by (EU) 2026/46 and (EU) 2026/83',
        as_of: '2026-01-29',
      },
    ],
    sepa: SEPA_DE,
    score: 10,
    level: 'low',
    flags: [
      {
        code: 'sanctions_stale',
        weight: 10,
        detail:
          'The newest sanctions list (OFAC SDN, as of 2024-05-03) is more than 30 days old: designations made since then are not screened.',
        source: 'OFAC SDN',
        as_of: '2024-05-03',
      },
    ],
    disclaimer:
      'Bank-level screening only: the BIC is checked against the loaded sanctions lists and the country against FATF and EU lists. The account holder is not screened by name; this is not a sanctions clearance.',
    attribution: ATTRIBUTION,
  },
  js: "await mod97.compliance({ iban: 'DE89370400440532013000' })",
  py: 'mod97.compliance(iban="DE89370400440532013000")',
};

export const clearing: RouteExample = {
  method: 'GET',
  path: '/v1/ch/clearing/230',
  key: true,
  status: 200,
  answer: {
    iid: '230',
    valid_on: '2025-09-02',
    concatenated: false,
    successor_iid: null,
    sic_iid: '002301',
    headquarters_iid: '230',
    iid_type: 'headquarters',
    qr_iid_allocation: null,
    name: 'UBS Switzerland AG',
    address: { street: 'Bahnhofstrasse', building_number: '45', postal_code: '8098', city: 'Zürich', country: 'CH' },
    bic: 'UBSWCHZH80A',
    sic_participation: true,
    rtgs_customer_payments_chf: true,
    instant_payments_chf: true,
    eurosic_participation: true,
    lsv_bdd_chf: true,
    lsv_bdd_eur: true,
    successor: null,
    source: 'SIX BankMaster V3 created 2025-09-01 16:30',
    as_of: '2025-09-02',
    attribution: ATTRIBUTION,
  },
  js: "await mod97.clearing('230')",
  py: 'mod97.clearing("230")',
};

export const cardCheckout: RouteExample = {
  method: 'POST',
  path: '/v1/card/checkout',
  body: { product: 'pack_1k' },
  key: false,
  status: 201,
  answer: {
    checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_a1b2c3',
    session_id: 'cs_test_a1b2c3',
    expires_at: '2026-11-21T12:30:00Z',
    product: 'pack_1k',
  },
};

export const cardCancel: RouteExample = {
  method: 'POST',
  path: '/v1/card/cancel',
  key: true,
  status: 200,
  answer: {
    key_prefix: 'ifk_3ca0',
    cancel_at_period_end: true,
    ends_at: '2026-12-21T12:00:00Z',
    message:
      'Pro will not renew. The key keeps Pro until 2026-12-21T12:00:00Z, then returns to its free plan; nothing else changes.',
  },
};

export const cardSuccess: RouteExample = {
  method: 'GET',
  path: '/v1/card/success?session_id=cs_test_a1b2c3',
  key: false,
  status: 202,
  answer: {
    status: 'pending',
    session_id: 'cs_test_a1b2c3',
    message: 'Your payment is being confirmed. Reload this page in a few seconds.',
  },
};

export const cardWebhook: RouteExample = {
  method: 'POST',
  path: '/v1/card/webhook',
  body: { id: 'evt_1', type: 'checkout.session.completed', data: { object: { id: 'cs_test_a1b2c3' } } },
  key: false,
  // Stripe sends it: the signature of the delivery with the webhook's secret.
  headers: { 'Stripe-Signature': '$STRIPE_SIGNATURE' },
  status: 200,
  answer: { received: true },
};

export const creditsBuy = (pack: string, credits: number, priceUsd: number): RouteExample => ({
  method: 'POST',
  path: `/v1/credits/buy/${pack}`,
  key: false,
  // The x402 payment for the pack, made by an x402 client from the 402's requirements.
  headers: { 'PAYMENT-SIGNATURE': '$PAYMENT_SIGNATURE' },
  status: 201,
  answer: {
    api_key: 'ifk_5d2e8a41c9b07f3e6a1d4c8b2f9e0a7d3c6b1e4f8a2d5c9b0e7f3a6d1c4b8e2f',
    key_prefix: 'ifk_5d2e',
    tier: 'credits',
    basis: 'credits',
    pack,
    credits,
    balance: credits,
    price_usd: priceUsd,
    message: 'Store this key now: it is shown only once. Credits never expire; each IBAN or lookup draws one.',
  },
});

export const extract: RouteExample = {
  method: 'POST',
  path: '/v1/iban/extract',
  body: { text: 'Please pay to IBAN: DE89 3704 0044 0532 0130 00 by 30 November.' },
  key: true,
  status: 200,
  answer: {
    count: 1,
    truncated: false,
    items: [
      {
        match: 'DE89 3704 0044 0532 0130 00',
        start: 20,
        end: 47,
        ...DE89_ANSWER,
        ocr_repaired: false,
        national_check: 'passed',
      },
    ],
    attribution: ATTRIBUTION,
  },
  js: "await mod97.extract('Please pay to IBAN: DE89 3704 0044 0532 0130 00 by 30 November.')",
  py: 'mod97.extract("Please pay to IBAN: DE89 3704 0044 0532 0130 00 by 30 November.")',
};

export const referenceValidate: RouteExample = {
  method: 'POST',
  path: '/v1/reference/validate',
  body: { reference: 'RF19 5390 0754 7034' },
  key: true,
  status: 200,
  answer: {
    reference: 'RF19539007547034',
    type: 'rf',
    valid: false,
    formatted: 'RF19 5390 0754 7034',
    errors: [
      {
        code: 'reference_check_failed',
        message: 'The check of this RF creditor reference (ISO 11649) does not hold: probably a typing error.',
      },
    ],
    suggestions: ['RF18539007547034', 'RF1953K007547034', 'RF19539007527034'],
    attribution: ATTRIBUTION,
  },
  js: "await mod97.validateReference('RF19 5390 0754 7034')",
  py: 'mod97.validate_reference("RF19 5390 0754 7034")',
};

export const referenceCreate: RouteExample = {
  method: 'POST',
  path: '/v1/reference/create',
  body: { type: 'qrr', from: '21000000000313947143000901' },
  key: true,
  status: 200,
  answer: {
    reference: '210000000003139471430009017',
    type: 'qrr',
    valid: true,
    formatted: '21 00000 00003 13947 14300 09017',
    errors: [],
    suggestions: [],
    attribution: ATTRIBUTION,
  },
  js: "await mod97.createReference({ type: 'qrr', from: '21000000000313947143000901' })",
  py: 'mod97.create_reference("qrr", "21000000000313947143000901")',
};

export const paymentCheck: RouteExample = {
  method: 'POST',
  path: '/v1/payment/check',
  body: {
    creditor: { iban: 'DE89 3704 0044 0532 0130 00', name: 'Musterfirma GmbH' },
    amount: '1234.50',
    currency: 'EUR',
    reference: 'RF18 5390 0754 7034',
    remittance: 'Invoice 2026-118',
  },
  key: true,
  status: 200,
  answer: {
    valid: true,
    scheme: 'sct',
    iban: { ...DE89_ANSWER, national_check: 'passed' },
    reference: {
      reference: 'RF18539007547034',
      type: 'rf',
      valid: true,
      formatted: 'RF18 5390 0754 7034',
      errors: [],
      suggestions: [],
    },
    errors: [],
    warnings: [
      {
        code: 'reference_and_remittance',
        field: 'remittance',
        message: 'An EPC QR code carries a reference or a remittance text, not both: the text is dropped.',
      },
    ],
    attribution: ATTRIBUTION,
  },
  js: "await mod97.checkPayment({ creditor: { iban: 'DE89 3704 0044 0532 0130 00', name: 'Musterfirma GmbH' }, amount: '1234.50', currency: 'EUR', reference: 'RF18 5390 0754 7034', remittance: 'Invoice 2026-118' })",
  py: 'mod97.check_payment({"creditor": {"iban": "DE89 3704 0044 0532 0130 00", "name": "Musterfirma GmbH"}, "amount": "1234.50", "currency": "EUR", "reference": "RF18 5390 0754 7034", "remittance": "Invoice 2026-118"})',
};

const PAYMENT_QR_BODY = {
  creditor: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', name: 'ACME GmbH' },
  amount: '149.90',
  currency: 'EUR',
  reference: 'RF18 5390 0754 7034',
  format: 'payload',
};
const GIROCODE = 'BCD\n002\n1\nSCT\n\nACME GmbH\nDE89370400440532013000\nEUR149.90\n\nRF18539007547034';

export const paymentQr: RouteExample = {
  method: 'POST',
  path: '/v1/payment/qr',
  body: PAYMENT_QR_BODY,
  key: true,
  status: 200,
  answer: {
    standard: 'epc',
    payload: 'BCD\n002\n1\nSCT\nCOBADEFFXXX\nACME GmbH\nDE89370400440532013000\nEUR149.90\n\nRF18539007547034',
    warnings: [],
    attribution: ATTRIBUTION,
  },
  js: `await mod97.paymentQr(${JSON.stringify(PAYMENT_QR_BODY).replace(/"(\w+)":/g, '$1: ')})`,
};

export const paymentQrRead: RouteExample = {
  method: 'POST',
  path: '/v1/payment/qr/read',
  body: { payload: GIROCODE },
  key: true,
  status: 200,
  answer: {
    standard: 'epc',
    payload: GIROCODE,
    fields: {
      standard: 'epc',
      creditor: { iban: 'DE89370400440532013000', name: 'ACME GmbH' },
      amount: '149.90',
      currency: 'EUR',
      reference: 'RF18539007547034',
    },
    check: {
      valid: true,
      scheme: 'sct',
      iban: { ...DE89_ANSWER, national_check: 'passed' },
      reference: {
        reference: 'RF18539007547034',
        type: 'rf',
        valid: true,
        formatted: 'RF18 5390 0754 7034',
        errors: [],
        suggestions: [],
      },
      errors: [],
      warnings: [],
    },
    attribution: ATTRIBUTION,
  },
  js: `await mod97.readPaymentQr({ payload: ${JSON.stringify(GIROCODE)} })`,
};
