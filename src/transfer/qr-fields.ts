/**
 * The payment a QR code carries, as `POST /v1/payment/qr` takes it and `/v1/payment/qr/read`
 * gives it back, and the small rules both payload standards share: the amount's one written
 * form, electronic forms of IBAN, BIC and reference, and the characters a line may hold.
 */
import { normalizeIban } from '../iban/normalize.ts';
import { type PaymentAddress, type PaymentInput, paymentAmount } from './check.ts';

export type QrStandard = 'epc' | 'swiss_qr_bill';

export type PostalAddress = PaymentAddress;

/** The payment check's body (check.ts) with the standard instead of the scheme. */
export type QrPaymentFields = Omit<PaymentInput, 'scheme'> & { standard?: QrStandard };

/** A rule a payload could not keep, in the shape of the payment check's errors. */
export interface FieldError {
  code: string;
  field: string;
  message: string;
}

export type Built = { ok: true; payload: string } | { ok: false; errors: FieldError[] };

export type Parsed = { ok: true; fields: QrPaymentFields } | { ok: false; message: string };

/** The amount as both payloads write it: a dot and two decimals (`1949.75`, `12.30`); null when invalid. */
export const amountText = paymentAmount;

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
