/**
 * A payment made into a QR code payload: the standard chosen, the payment checked whole (the
 * payment check, check.ts), then the payload built by its standard's own rules. Either the
 * payload, or every rule broken, from the check and from the standard, in one list.
 */
import type { IbanVerdict, PaymentCheck, PaymentInput, PaymentIssue, PaymentScheme } from './check.ts';
import { buildEpcPayload } from './epc-qr.ts';
import { type FieldError, isSwissIban, type QrPaymentFields, type QrStandard } from './qr-fields.ts';
import { buildSwissPayload } from './swiss-qr.ts';

type Scheme = PaymentScheme;

/** The payment check (check.ts) bound to its data. */
export type PaymentChecker = (input: PaymentInput) => PaymentCheck<IbanVerdict>;
type CheckAnswer = PaymentCheck<IbanVerdict>;

export const SCHEME_OF: Record<QrStandard, Scheme> = { epc: 'sct', swiss_qr_bill: 'swiss_qr_bill' };

/** The body's standard; else the one its scheme names; else Swiss for a CH or LI IBAN, EPC for any other. */
export function standardOf(fields: QrPaymentFields & { scheme?: Scheme }): QrStandard {
  if (fields.standard) return fields.standard;
  if (fields.scheme) return fields.scheme === 'sct' ? 'epc' : 'swiss_qr_bill';
  return isSwissIban(fields.creditor.iban) ? 'swiss_qr_bill' : 'epc';
}

export type MadePayload =
  | { ok: true; standard: QrStandard; payload: string; check: CheckAnswer }
  | { ok: false; standard: QrStandard; errors: FieldError[]; check: CheckAnswer };

export function makePaymentPayload(fields: QrPaymentFields & { scheme?: Scheme }, check: PaymentChecker): MadePayload {
  const standard = standardOf(fields);
  const scheme = SCHEME_OF[standard];
  const errors: FieldError[] = [];
  if (fields.scheme && fields.scheme !== scheme)
    errors.push({
      code: 'scheme_mismatch',
      field: 'scheme',
      message: `The ${standard} standard carries a ${scheme} payment, not ${fields.scheme}.`,
    });
  const { scheme: _sent, ...payment } = fields;
  const checked = check({ ...payment, scheme });
  errors.push(...checked.errors);
  const built = standard === 'epc' ? buildEpcPayload(payment) : buildSwissPayload(payment);
  if (!built.ok) {
    // A rule both the check and the standard name is listed once, as the check words it.
    const seen = new Set(errors.map((e) => `${e.code} ${e.field}`));
    errors.push(...built.errors.filter((e) => !seen.has(`${e.code} ${e.field}`)));
  }
  if (errors.length > 0 || !built.ok) return { ok: false, standard, errors, check: checked };
  return { ok: true, standard, payload: built.payload, check: checked };
}

/**
 * The check of a code read: the payment check of its fields, after the payload's own faults
 * (the standard's rules its fields cannot show, Parsed in qr-fields.ts), which make it invalid too.
 */
export function checkReadPayment(
  read: { standard: QrStandard; fields: QrPaymentFields; errors: PaymentIssue[] },
  check: PaymentChecker,
): CheckAnswer {
  const { standard: _standard, ...payment } = read.fields;
  const checked = check({ ...payment, scheme: SCHEME_OF[read.standard] });
  const errors = [...read.errors, ...checked.errors];
  return { ...checked, valid: errors.length === 0, errors };
}
