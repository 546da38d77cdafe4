/**
 * Reading a payment QR code's text (given, or read from an image by read.ts): the standard, the
 * body fields of `POST /v1/payment/qr`, and the rules of the standard the text breaks.
 */
import type { PaymentIssue } from './check.ts';
import { parseEpcPayload } from './epc-qr.ts';
import type { QrPaymentFields, QrStandard } from './qr-fields.ts';
import { parseSwissPayload } from './swiss-qr.ts';

/**
 * The standard of a payload, its fields and the rules of the standard it breaks with its fields
 * still read (qr-fields.ts, Parsed), or why it is neither an EPC QR code nor a Swiss QR code.
 */
export function readPayload(
  payload: string,
):
  | { ok: true; standard: QrStandard; fields: QrPaymentFields; errors: PaymentIssue[] }
  | { ok: false; code: 'qr_standard_unknown'; message: string } {
  const text = payload.replace(/^\uFEFF/, '');
  const standard: QrStandard | null = text.startsWith('BCD') ? 'epc' : text.startsWith('SPC') ? 'swiss_qr_bill' : null;
  if (!standard)
    return {
      ok: false,
      code: 'qr_standard_unknown',
      message: 'The payload is neither an EPC QR code (first line BCD) nor a Swiss QR code (first line SPC).',
    };
  const parsed = standard === 'epc' ? parseEpcPayload(text) : parseSwissPayload(text);
  if (!parsed.ok) return { ok: false, code: 'qr_standard_unknown', message: parsed.message };
  return { ok: true, standard, fields: parsed.fields, errors: parsed.errors };
}
