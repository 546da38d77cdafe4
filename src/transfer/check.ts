/**
 * The payment check (docs/api.md, "POST /v1/payment/check"): a credit transfer judged whole,
 * every part and then the parts against each other, so that an invoice's payment slip or QR code
 * is known to work before it is printed. Pure: the IBAN's validate answer comes from `deps`
 * (the same answer as POST /v1/iban/validate), the reference's from src/reference/.
 */
import { checkBicFormat } from '../data/bic-format.ts';
import { isCountryCode } from '../data/countries.ts';
import { normalizeIban } from '../iban/index.ts';
import { validateReference, type ReferenceResult } from '../reference/index.ts';

export const PAYMENT_SCHEMES = ['sct', 'swiss_qr_bill'] as const;
export type PaymentScheme = (typeof PAYMENT_SCHEMES)[number];

/** A structured postal address (Swiss QR-bill address type S). */
export interface PaymentAddress {
  street?: string;
  building_number?: string;
  postal_code?: string;
  town?: string;
  country?: string;
}

/** What a payment instruction holds: the body of POST /v1/payment/check. */
export interface PaymentInput {
  creditor: { iban: string; bic?: string; name: string; address?: PaymentAddress };
  /** 0.01 to 999999999.99, at most 2 decimals; absent when the payer fills it in. */
  amount?: string | number;
  currency: string;
  reference?: string;
  remittance?: string;
  debtor?: { name: string; address?: PaymentAddress };
  /** `sct` by default; `swiss_qr_bill` by default for a CH or LI IBAN. */
  scheme?: PaymentScheme;
}

/**
 * Every code the check answers, errors then warnings, with what it means; the codes said of a
 * code "read" are the payload's own faults, which the check of POST /v1/payment/qr/read adds
 * (swiss-qr.ts, epc-qr.ts).
 */
export const PAYMENT_ISSUES = {
  iban_invalid: 'The IBAN fails validation (see `iban.errors`).',
  invalid_bic: 'The BIC is not well formed.',
  bic_missing: 'An EPC QR code of version 001, read, has no BIC (that version requires it).',
  name_missing: 'The name is empty.',
  name_too_long: 'The name has more than 70 characters.',
  address_missing: 'A Swiss QR-bill needs the creditor’s structured address.',
  address_invalid: 'A part of the address is missing, too long or not a country code.',
  ultimate_creditor_filled:
    'A Swiss QR code, read, fills in the ultimate creditor (lines 12 to 18), which is reserved.',
  amount_invalid:
    'The amount is not 0.01 to 999999999.99 with at most 2 decimals (a Swiss QR code, read, writes exactly 2 and no leading zeros).',
  currency_not_allowed: 'The scheme does not carry this currency (SCT: EUR; Swiss QR-bill: CHF or EUR).',
  outside_sepa: 'A SEPA credit transfer to an IBAN outside the SEPA scope.',
  iban_not_swiss: 'A Swiss QR-bill is paid to a CH or LI IBAN only.',
  reference_invalid: 'The reference fails validation (see `reference.errors`) or the scheme does not carry its type.',
  reference_type_mismatch:
    'A Swiss QR code, read, whose reference type (QRR, SCOR, NON) does not fit its reference line.',
  qr_iban_needs_qrr: 'A QR-IBAN is paid with a valid QR reference only.',
  qrr_needs_qr_iban: 'A QR reference is paid to a QR-IBAN only (IID 30000-31999).',
  remittance_too_long: 'The remittance text (the message to the payee) has more than 140 characters.',
  bic_mismatch: 'The BIC is not one the sources give for the IBAN’s bank.',
  reference_and_remittance: 'An EPC QR code carries a reference or a remittance text, not both: the text is dropped.',
} as const satisfies Record<string, string>;

export type PaymentIssueCode = keyof typeof PAYMENT_ISSUES;

export interface PaymentIssue {
  code: PaymentIssueCode;
  /** The body member at fault, as a path: `creditor.iban`, `amount`, `debtor.address.town`. */
  field: string;
  message: string;
}

/** What the check needs of the IBAN's validate answer (src/describe.ts gives it all). */
export interface IbanVerdict {
  valid: boolean;
  country: { code: string } | null;
  qr_iban: boolean;
  sepa: { member: boolean } | null;
  bic_check?: { matches: boolean | null; expected: string[] };
}

export interface PaymentDeps<I extends IbanVerdict> {
  /** The validate answer of an IBAN, with the check of a well-formed BIC (upper case, no spaces) when given. */
  describe(iban: string, bic?: string): I;
}

export interface PaymentCheck<I extends IbanVerdict> {
  valid: boolean;
  scheme: PaymentScheme;
  iban: I;
  reference: ReferenceResult | null;
  errors: PaymentIssue[];
  warnings: PaymentIssue[];
}

export const LIMITS = { name: 70, remittance: 140, street: 70, building_number: 16, postal_code: 16, town: 35 };
const SWISS = new Set(['CH', 'LI']);
const CURRENCIES: Record<PaymentScheme, readonly string[]> = { sct: ['EUR'], swiss_qr_bill: ['CHF', 'EUR'] };
const MAX_AMOUNT_CENTS = 99_999_999_999;

/** Characters as people count them (code points, not UTF-16 units). */
const length = (s: string) => [...s].length;
const blank = (s: string | undefined) => s === undefined || s.trim() === '';

/**
 * The amount with a dot and 2 decimals ("1234.50"), or null when it is not 0.01 to
 * 999999999.99 with at most 2 decimals. A string is read as written (no thousands separators),
 * a number by its shortest decimal form.
 */
export function paymentAmount(amount: string | number): string | null {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? String(amount) : '') : amount.trim();
  const parts = /^([0-9]{1,9})(?:\.([0-9]{1,2}))?$/.exec(text);
  if (!parts) return null;
  const cents = Number(parts[1]) * 100 + Number((parts[2] ?? '').padEnd(2, '0'));
  if (cents < 1 || cents > MAX_AMOUNT_CENTS) return null;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The scheme asked for, or the one the IBAN's country implies. */
export function schemeOf(input: Pick<PaymentInput, 'scheme' | 'creditor'>): PaymentScheme {
  if (input.scheme) return input.scheme;
  const country = normalizeIban(String(input.creditor?.iban ?? '')).slice(0, 2);
  return SWISS.has(country) ? 'swiss_qr_bill' : 'sct';
}

function addressIssues(address: PaymentAddress, at: string): PaymentIssue[] {
  const issues: PaymentIssue[] = [];
  const issue = (part: string, message: string) =>
    issues.push({ code: 'address_invalid', field: `${at}.${part}`, message });
  for (const part of ['postal_code', 'town'] as const) {
    if (blank(address[part])) issue(part, `The ${part.replace('_', ' ')} is missing.`);
  }
  for (const part of ['street', 'building_number', 'postal_code', 'town'] as const) {
    const value = address[part];
    if (value !== undefined && length(value) > LIMITS[part]) {
      issue(part, `The ${part.replace('_', ' ')} has ${length(value)} characters; at most ${LIMITS[part]}.`);
    }
  }
  const country = address.country?.trim() ?? '';
  if (!country) issue('country', 'The country is missing: a 2-letter ISO 3166 code such as CH.');
  else if (!/^[A-Za-z]{2}$/.test(country) || !isCountryCode(country.toUpperCase()))
    issue('country', `${country} is not an ISO 3166 country code (2 letters, such as CH).`);
  return issues;
}

function nameIssues(name: string | undefined, at: string): PaymentIssue[] {
  if (blank(name)) return [{ code: 'name_missing', field: at, message: 'The name is empty.' }];
  const n = length(name ?? '');
  return n > LIMITS.name
    ? [{ code: 'name_too_long', field: at, message: `The name has ${n} characters; at most ${LIMITS.name}.` }]
    : [];
}

/** The payment judged whole: every part, then the parts against each other. */
export function checkPayment<I extends IbanVerdict>(input: PaymentInput, deps: PaymentDeps<I>): PaymentCheck<I> {
  const scheme = schemeOf(input);
  const errors: PaymentIssue[] = [];
  const warnings: PaymentIssue[] = [];
  const { creditor } = input;

  // The IBAN, with the BIC when it is well formed.
  let bic: string | undefined;
  if (creditor.bic !== undefined && !blank(creditor.bic)) {
    const format = checkBicFormat(creditor.bic);
    if (format.ok) bic = creditor.bic.replace(/\s+/g, '').toUpperCase();
    else
      errors.push({
        code: 'invalid_bic',
        field: 'creditor.bic',
        message: `The BIC is not well formed: ${format.message}.`,
      });
  }
  const iban = deps.describe(creditor.iban, bic);
  if (!iban.valid) {
    errors.push({
      code: 'iban_invalid',
      field: 'creditor.iban',
      message: 'The IBAN fails validation: see `iban.errors`.',
    });
  }
  if (iban.bic_check?.matches === false) {
    warnings.push({
      code: 'bic_mismatch',
      field: 'creditor.bic',
      message: `The sources give ${iban.bic_check.expected.join(', ')} for this IBAN's bank, not ${bic}.`,
    });
  }
  const country = iban.country?.code;
  if (scheme === 'swiss_qr_bill' && country !== undefined && !SWISS.has(country)) {
    errors.push({
      code: 'iban_not_swiss',
      field: 'creditor.iban',
      message: 'A Swiss QR-bill is paid to a CH or LI IBAN only.',
    });
  }
  if (scheme === 'sct' && iban.valid && iban.sepa?.member === false) {
    errors.push({
      code: 'outside_sepa',
      field: 'creditor.iban',
      message: `${country} is outside the SEPA scope: a SEPA credit transfer cannot reach it.`,
    });
  }

  errors.push(...nameIssues(creditor.name, 'creditor.name'));
  if (creditor.address) errors.push(...addressIssues(creditor.address, 'creditor.address'));
  else if (scheme === 'swiss_qr_bill') {
    errors.push({
      code: 'address_missing',
      field: 'creditor.address',
      message: 'A Swiss QR-bill needs the creditor’s address: postal code, town and country at least.',
    });
  }

  if (input.amount !== undefined && paymentAmount(input.amount) === null) {
    errors.push({
      code: 'amount_invalid',
      field: 'amount',
      message: 'The amount is 0.01 to 999999999.99 with at most 2 decimals and a dot, e.g. "1234.50".',
    });
  }
  const currency = String(input.currency ?? '')
    .trim()
    .toUpperCase();
  if (!CURRENCIES[scheme].includes(currency)) {
    errors.push({
      code: 'currency_not_allowed',
      field: 'currency',
      message: `${scheme === 'sct' ? 'A SEPA credit transfer' : 'A Swiss QR-bill'} is paid in ${CURRENCIES[scheme].join(' or ')}.`,
    });
  }

  const reference = blank(input.reference) ? null : referenceOf(input.reference ?? '', scheme, country);
  errors.push(...referenceIssues(reference, scheme, iban.qr_iban, iban.valid));

  const remittance = input.remittance ?? '';
  if (length(remittance) > LIMITS.remittance) {
    errors.push({
      code: 'remittance_too_long',
      field: 'remittance',
      message: `The remittance text (the message to the payee) has ${length(remittance)} characters; at most ${LIMITS.remittance}.`,
    });
  }
  if (scheme === 'sct' && reference !== null && !blank(remittance)) {
    warnings.push({
      code: 'reference_and_remittance',
      field: 'remittance',
      message: PAYMENT_ISSUES.reference_and_remittance,
    });
  }

  if (input.debtor) {
    errors.push(...nameIssues(input.debtor.name, 'debtor.name'));
    if (input.debtor.address) errors.push(...addressIssues(input.debtor.address, 'debtor.address'));
  }
  return { valid: errors.length === 0, scheme, iban, reference, errors, warnings };
}

/** A Swiss QR-bill's reference is read as Swiss (27 digits a QR reference); an SCT's by the IBAN's country. */
function referenceOf(reference: string, scheme: PaymentScheme, country: string | undefined): ReferenceResult {
  return validateReference(reference, { country: scheme === 'swiss_qr_bill' ? 'CH' : country });
}

function referenceIssues(
  reference: ReferenceResult | null,
  scheme: PaymentScheme,
  qrIban: boolean,
  ibanValid: boolean,
): PaymentIssue[] {
  const issues: PaymentIssue[] = [];
  const isQrr = reference?.type === 'qrr';
  if (reference !== null && !reference.valid) {
    issues.push({
      code: 'reference_invalid',
      field: 'reference',
      message: 'The reference fails validation: see `reference.errors`.',
    });
  } else if (reference !== null && scheme === 'swiss_qr_bill' && reference.type !== 'qrr' && reference.type !== 'rf') {
    issues.push({
      code: 'reference_invalid',
      field: 'reference',
      message: 'A Swiss QR-bill carries a QR reference or an RF creditor reference only.',
    });
  }
  if (qrIban && !(isQrr && reference?.valid)) {
    issues.push({
      code: 'qr_iban_needs_qrr',
      field: 'reference',
      message: 'This IBAN is a QR-IBAN (IID 30000-31999): it is paid with a valid 27-digit QR reference only.',
    });
  }
  if (isQrr && reference?.valid && ibanValid && !qrIban) {
    issues.push({
      code: 'qrr_needs_qr_iban',
      field: 'creditor.iban',
      message: 'A QR reference is paid to a QR-IBAN only (IID 30000-31999); with this IBAN use an RF reference.',
    });
  }
  return issues;
}
