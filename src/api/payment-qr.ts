/** POST /v1/payment/qr and POST /v1/payment/qr/read, as declared (declaration.ts). */
import { defineRoute } from './declaration.ts';
import * as examples from './examples.ts';
import { PaymentQrAnswer, PaymentQrBody, PaymentQrReadAnswer, PaymentQrReadBody } from './payment-qr-schemas.ts';

const one = () => 1;

/** What POST /v1/payment/qr makes, said by the route and by its tool, which answers a PNG alone. */
const MAKES =
  'Makes the QR code a banking app scans to pay: an EPC QR code (SEPA credit transfer in EUR) or, for a Swiss or Liechtenstein IBAN, the Swiss QR code of a QR-bill with its cross';
const CHECKED_FIRST = 'The payment is checked first (IBAN, reference, amount, currency, names).';

export const paymentQrRoute = defineRoute({
  method: 'POST',
  url: '/v1/payment/qr',
  operationId: 'makePaymentQr',
  schema: { body: PaymentQrBody, response: { 200: PaymentQrAnswer } },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'paymentQr' } },
  errors: ['payment_data_invalid'],
  example: examples.paymentQr,
  idempotent: true,
  guide: {
    title: 'Make the QR code of a payment (EPC "GiroCode" or Swiss QR-bill) as SVG, PNG or text',
    purpose: `${MAKES}; as SVG, PNG or the payload text. ${CHECKED_FIRST}`,
    example: {
      creditor: { iban: 'DE89370400440532013000', name: 'ACME GmbH' },
      amount: '149.90',
      currency: 'EUR',
      remittance: 'Invoice 2026-118',
    },
  },
  mcp: {
    name: 'make_payment_qr',
    title: 'Make a payment QR code',
    fixedArgs: { format: 'png' },
    content: 'image',
    summary: `${MAKES}. ${CHECKED_FIRST}`,
    note: 'Answers the PNG as an image content part and the payload as text. A Swiss QR-bill needs creditor.address (street, postal_code, town, country). A payment that cannot be coded is the error payment_data_invalid (not charged) whose errors name each field.',
  },
});

export const readPaymentQrRoute = defineRoute({
  method: 'POST',
  url: '/v1/payment/qr/read',
  operationId: 'readPaymentQr',
  schema: { body: PaymentQrReadBody, response: { 200: PaymentQrReadAnswer } },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'paymentQrRead' } },
  errors: ['image_too_large', 'image_unreadable', 'qr_not_found', 'qr_standard_unknown'],
  example: examples.paymentQrRead,
  idempotent: true,
  exactlyOneOf: ['payload', 'image'],
  guide: {
    title: 'Read a payment QR code (EPC or Swiss QR-bill) from its text or an image, and check it',
    purpose:
      'Reads an EPC QR code or a Swiss QR-bill code, from its text or from a PNG or JPEG: the standard, the payment fields (creditor, IBAN, amount, currency, reference, message, debtor) and the payment check of them.',
    example: {
      payload: 'BCD\n002\n1\nSCT\nCOBADEFFXXX\nACME GmbH\nDE89370400440532013000\nEUR149.90\n\nRF18539007547034',
    },
  },
  mcp: {
    name: 'read_payment_qr',
    title: 'Read a payment QR code',
    note: 'Send exactly one of payload (the text) or image (a PNG or JPEG in base64). No code in the image is qr_not_found, a text of neither standard qr_standard_unknown (neither charged).',
  },
});
