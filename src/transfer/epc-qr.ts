/**
 * The EPC QR code ("GiroCode", EPC069-12): a SEPA credit transfer as twelve lines of text.
 * Written as version 002, character set 1 (UTF-8), identification SCT; read back from version
 * 001 or 002 in any of its character sets (the QR decoder has already made the bytes text).
 */
import type { PaymentIssue } from './check.ts';
import {
  amountText,
  type Built,
  characterErrors,
  electronic,
  type FieldError,
  type Parsed,
  payloadLines,
  type QrPaymentFields,
} from './qr-fields.ts';

/** EPC069-12: the whole payload is at most 331 bytes. */
export const EPC_MAX_BYTES = 331;

/**
 * Lines: BCD, 002, 1, SCT, BIC (or empty), name, IBAN, EUR + amount (or empty), purpose
 * (empty), the RF reference or empty, the remittance or empty, empty; no empty lines after the
 * last one with a value. A code carries a structured reference or a remittance text, not both:
 * given both, the reference is written (the payment check warns `reference_and_remittance`).
 */
export function buildEpcPayload(fields: QrPaymentFields): Built {
  const { creditor } = fields;
  const errors: FieldError[] = characterErrors(
    {
      'creditor.name': creditor.name,
      'creditor.bic': creditor.bic,
      reference: fields.reference,
      remittance: fields.remittance,
    },
    'epc',
  );
  const reference = fields.reference ? electronic(fields.reference) : '';
  if (reference && !reference.startsWith('RF'))
    errors.push({
      code: 'reference_invalid',
      field: 'reference',
      message:
        'An EPC QR code carries a structured reference only as an RF creditor reference (ISO 11649); send another reference as remittance.',
    });
  const amount = fields.amount === undefined ? '' : amountText(fields.amount);
  if (amount === null) errors.push({ code: 'amount_invalid', field: 'amount', message: 'The amount is not valid.' });
  if (errors.length > 0) return { ok: false, errors };
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    creditor.bic ? electronic(creditor.bic) : '',
    creditor.name.trim(),
    electronic(creditor.iban),
    amount ? `EUR${amount}` : '',
    '',
    reference,
    reference ? '' : (fields.remittance?.trim() ?? ''),
    '',
  ];
  while (lines.at(-1) === '') lines.pop();
  const payload = lines.join('\n');
  const bytes = Buffer.byteLength(payload, 'utf8');
  if (bytes > EPC_MAX_BYTES)
    return {
      ok: false,
      errors: [
        {
          code: 'payload_too_long',
          field: fields.remittance ? 'remittance' : 'creditor.name',
          message: `The EPC QR payload would be ${bytes} bytes; the standard allows ${EPC_MAX_BYTES} (letters outside ASCII take 2 to 4 bytes each).`,
        },
      ],
    };
  return { ok: true, payload };
}

/** Version 001 requires the BIC; version 002 makes it optional (EPC069-12). */
const bicErrors = (version: string, bic: string): PaymentIssue[] =>
  version === '001' && !bic
    ? [
        {
          code: 'bic_missing',
          field: 'creditor.bic',
          message:
            'Line 5 (the BIC) is empty; an EPC QR code of version 001 requires the BIC (version 002 makes it optional).',
        },
      ]
    : [];

/** The body fields of an EPC QR payload; purpose and the note to the payer have no field and are left out. */
export function parseEpcPayload(payload: string): Parsed {
  const lines = payloadLines(payload);
  // A writer's line break after the last line is not a thirteenth line.
  while (lines.length > 12 && lines.at(-1) === '') lines.pop();
  const refuse = (why: string): Parsed => ({ ok: false, message: `Starts as an EPC QR code (BCD) but ${why}.` });
  if (lines[0] !== 'BCD') return { ok: false, message: 'Not an EPC QR code: the first line is not BCD.' };
  const [, version, charset, identification, bic = '', name = '', iban = '', amount = ''] = lines;
  if (version !== '001' && version !== '002') return refuse(`its version is "${version}", not 001 or 002`);
  if (!/^[1-8]$/.test(charset ?? '')) return refuse('its character set is not 1 to 8');
  if (identification !== 'SCT') return refuse('its identification is not SCT');
  if (lines.length > 12) return refuse('it has more than 12 lines');
  if (!name || !iban) return refuse('it has no beneficiary name or no IBAN');
  // Currency and amount as written: a wrong one (USD5, EUR5,00) is the payment check's to name, in `check`.
  const money = /^([A-Za-z]{3})(.*)$/.exec(amount);
  if (amount && !money) return refuse(`its amount line "${amount}" does not start with a currency code`);
  const [, currency = 'EUR', sum = ''] = money ?? [];
  const reference = lines[9] ?? '';
  const remittance = lines[10] ?? '';
  const fields: QrPaymentFields = {
    standard: 'epc',
    creditor: { iban, ...(bic && { bic }), name },
    ...(sum && { amount: amountText(sum) ?? sum }),
    currency,
    ...(reference && { reference }),
    ...(remittance && { remittance }),
  };
  return { ok: true, fields, errors: bicErrors(version, bic) };
}
