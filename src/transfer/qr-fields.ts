/**
 * The payment a QR code carries, as `POST /v1/payment/qr` takes it and `/v1/payment/qr/read`
 * gives it back, and the small rules both payload standards share: the amount's one written
 * form, electronic forms of IBAN, BIC and reference, and the characters a line may hold.
 */
import { normalizeIban } from '../iban/normalize.ts';
import { type PaymentAddress, type PaymentInput, type PaymentIssue, paymentAmount } from './check.ts';

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

/**
 * A payload read: its fields, and `errors`, the rules of its standard it breaks that its fields
 * cannot show (a reserved line filled in, an amount not written as the standard writes it), in
 * line order, for the read's check. A payload whose fields cannot be read at all is not parsed.
 */
export type Parsed = { ok: true; fields: QrPaymentFields; errors: PaymentIssue[] } | { ok: false; message: string };

/** The amount as both payloads write it: a dot and two decimals (`1949.75`, `12.30`); null when invalid. */
export const amountText = paymentAmount;

/** Separators removed, upper case: how an IBAN, a BIC or a reference is written in a payload. */
export const electronic = (value: string): string => normalizeIban(value).toUpperCase();

/** An IBAN's country is CH or LI: the Swiss QR-bill's own accounts. */
export const isSwissIban = (iban: string): boolean => /^(CH|LI)/.test(electronic(iban));

/** Line breaks and other control characters would move every later field of a payload. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Half of a UTF-16 surrogate pair alone: no UTF-8 byte stands for it, so no code can carry it. */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * The Swiss QR-bill's character set (Swiss Implementation Guidelines 2.3, 4.1.1): Basic Latin,
 * Latin-1 Supplement and Latin Extended-A, printable, and Ș ș Ț ț and €.
 */
const OUTSIDE_SWISS_SET = /[^\u0020-\u007e\u00a0-\u017f\u0218-\u021b\u20ac]/u;

/** The characters of each field that its standard's payload cannot carry, one error per field. */
export function characterErrors(values: Record<string, string | undefined>, standard: QrStandard): FieldError[] {
  return Object.entries(values).flatMap(([field, value]) => {
    const fault = value === undefined ? null : characterFault(value, standard);
    return fault === null ? [] : [{ code: 'characters_invalid', field, message: `${field} holds ${fault}.` }];
  });
}

function characterFault(value: string, standard: QrStandard): string | null {
  if (CONTROL.test(value)) return 'a line break or another control character';
  if (LONE_SURROGATE.test(value)) return 'half of a character (a lone UTF-16 surrogate), which UTF-8 cannot write';
  const outside = standard === 'swiss_qr_bill' ? OUTSIDE_SWISS_SET.exec(value) : null;
  if (outside)
    return `"${outside[0]}", which a Swiss QR-bill cannot carry: its characters are Latin ones (Basic Latin, Latin-1 Supplement, Latin Extended-A, Ș ș Ț ț) and €`;
  return null;
}

/** The lines of a payload: LF or CR LF between them, as both standards allow. */
export const payloadLines = (payload: string): string[] => payload.split(/\r?\n/);
