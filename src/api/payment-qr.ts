/** POST /v1/payment/qr and POST /v1/payment/qr/read, as declared (declaration.ts). */
import { defineRoute } from './declaration.ts';
import type { RouteExample } from './route-example.ts';
import { PaymentQrAnswer, PaymentQrBody, PaymentQrReadAnswer, PaymentQrReadBody } from './payment-qr-schemas.ts';

const one = () => 1;

const EPC_BODY = {
  creditor: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', name: 'ACME GmbH' },
  amount: '149.90',
  currency: 'EUR',
  reference: 'RF18 5390 0754 7034',
  format: 'payload',
};

export const EPC_EXAMPLE_PAYLOAD =
  'BCD\n002\n1\nSCT\nCOBADEFFXXX\nACME GmbH\nDE89370400440532013000\nEUR149.90\n\nRF18539007547034';

const SWISS_PAYLOAD =
  'SPC\n0200\n1\nCH4431999123000889012\nS\nRobert Schneider AG\nRue du Lac\n1268\n2501\nBiel\nCH\n\n\n\n\n\n\n\n1949.75\nCHF\n\n\n\n\n\n\n\nQRR\n210000000003139471430009017\nOrder dated 18.06.2020\nEPD';

const qrExample: RouteExample = {
  method: 'POST',
  path: '/v1/payment/qr',
  body: EPC_BODY,
  key: true,
  status: 200,
  answer: { standard: 'epc', payload: EPC_EXAMPLE_PAYLOAD },
  js: `await mod97.paymentQr(${JSON.stringify(EPC_BODY)})`,
};

const readExample: RouteExample = {
  method: 'POST',
  path: '/v1/payment/qr/read',
  body: { payload: SWISS_PAYLOAD },
  key: true,
  status: 200,
  answer: {
    standard: 'swiss_qr_bill',
    payload: SWISS_PAYLOAD,
    fields: {
      standard: 'swiss_qr_bill',
      creditor: {
        iban: 'CH4431999123000889012',
        name: 'Robert Schneider AG',
        address: { street: 'Rue du Lac', building_number: '1268', postal_code: '2501', town: 'Biel', country: 'CH' },
      },
      amount: '1949.75',
      currency: 'CHF',
      reference: '210000000003139471430009017',
      remittance: 'Order dated 18.06.2020',
    },
    check: { valid: true, errors: [], warnings: [] },
  },
  js: `await mod97.readPaymentQr({ payload: ${JSON.stringify(SWISS_PAYLOAD)} })`,
};

export const paymentQrRoute = defineRoute({
  method: 'POST',
  url: '/v1/payment/qr',
  operationId: 'makePaymentQr',
  schema: { body: PaymentQrBody, response: { 200: PaymentQrAnswer } },
  access: { auth: 'optional', meter: { cost: one, priceKey: 'paymentQr' } },
  errors: ['payment_data_invalid'],
  example: qrExample,
  idempotent: true,
  guide: {
    title: 'Make the QR code of a payment (EPC "GiroCode" or Swiss QR-bill) as SVG, PNG or text',
    purpose:
      'Makes the QR code a banking app scans to pay: an EPC QR code (SEPA credit transfer in EUR) or, for a Swiss or Liechtenstein IBAN, the Swiss QR code of a QR-bill with its cross; as SVG, PNG or the payload text. The payment is checked first (IBAN, reference, amount, currency, names).',
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
  example: readExample,
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
