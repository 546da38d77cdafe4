/**
 * The payment a QR code carries, as `POST /v1/payment/qr` takes it and `/v1/payment/qr/read`
 * gives it back, and the small rules both payload standards share: the amount's one written
 * form, electronic forms of IBAN, BIC and reference, and the characters a line may hold.
 */
import { normalizeIban } from '../iban/normalize.ts';

export type QrStandard = 'epc' | 'swiss_qr_bill';

export interface PostalAddress {
  street: string;
  building_number?: string;
  postal_code: string;
  town: string;
  country: string;
}

export interface QrPaymentFields {
  standard?: QrStandard;
  creditor: { iban: string; bic?: string; name: string; address?: PostalAddress };
  amount?: string | number;
  currency: string;
  reference?: string;
  remittance?: string;
  debtor?: { name: string; address: PostalAddress };
}

/** A rule a payload could not keep, in the shape of the payment check's errors. */
export interface FieldError {
  code: string;
  field: string;
  message: string;
}

export type Built = { ok: true; payload: string } | { ok: false; errors: FieldError[] };

export type Parsed = { ok: true; fields: QrPaymentFields } | { ok: false; message: string };

const AMOUNT = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?$/;

/**
 * The amount as both payloads write it: a dot and two decimals, no leading zeros (`1949.75`,
 * `12.30`); null when it is not 0.01–999999999.99 with at most two decimals (the payment check
 * names that error).
 */
export function amountText(amount: string | number): string | null {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? String(amount) : '') : amount.trim();
  const match = AMOUNT.exec(text);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '.').slice(1).padEnd(2, '0'));
  if (cents < 1) return null;
  return `${match[1]}.${(match[2] ?? '.').slice(1).padEnd(2, '0')}`;
}

/** Separators removed, upper case: how an IBAN, a BIC or a reference is written in a payload. */
export const electronic = (value: string): string => normalizeIban(value).toUpperCase();

/** An IBAN's country is CH or LI: the Swiss QR-bill's own accounts. */
export const isSwissIban = (iban: string): boolean => /^(CH|LI)/.test(electronic(iban));

/** Line breaks and other control characters would move every later field of a payload. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function characterErrors(values: Record<string, string | undefined>): FieldError[] {
  return Object.entries(values).flatMap(([field, value]) =>
    value !== undefined && CONTROL.test(value)
      ? [{ code: 'characters_invalid', field, message: `${field} holds a line break or another control character.` }]
      : [],
  );
}

/** The lines of a payload: LF or CR LF between them, as both standards allow. */
export const payloadLines = (payload: string): string[] => payload.split(/\r?\n/);
