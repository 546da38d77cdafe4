/** The bodies and answers of POST /v1/payment/qr and /v1/payment/qr/read. */
import { Type } from 'typebox';
import { Attribution, Open, StringEnum } from './schemas.ts';

const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });

const Address = Type.Object(
  {
    street: Text(200),
    building_number: Type.Optional(Text(200)),
    postal_code: Text(200),
    town: Text(200),
    country: Text(8, 'ISO 3166 two-letter code.'),
  },
  { description: 'A structured postal address (what a Swiss QR-bill carries, address type S).' },
);

/** The payment as the QR code carries it: the body of POST /v1/payment/check, with its standard. */
const paymentFields = {
  standard: Type.Optional(
    StringEnum(
      ['epc', 'swiss_qr_bill'],
      '`epc` (EPC QR code, "GiroCode") unless the IBAN is Swiss or Liechtenstein: then `swiss_qr_bill`.',
    ),
  ),
  creditor: Type.Object({
    iban: Text(64),
    bic: Type.Optional(Text(32)),
    name: Text(500),
    address: Type.Optional(Address),
  }),
  amount: Type.Optional(
    Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
      description: '0.01 to 999999999.99, at most 2 decimals; without it the payer types the amount.',
    }),
  ),
  currency: Text(8, 'EUR for an EPC QR code; CHF or EUR for a Swiss QR-bill.'),
  reference: Type.Optional(
    Text(64, 'An RF creditor reference (EPC and Swiss), or a Swiss QR reference (27 digits, to a QR-IBAN).'),
  ),
  remittance: Type.Optional(Text(1000, 'Unstructured remittance text, at most 140 characters.')),
  debtor: Type.Optional(Type.Object({ name: Text(500), address: Address })),
  scheme: Type.Optional(StringEnum(['sct', 'swiss_qr_bill'], 'The check the payment passes; follows `standard`.')),
};

export const PaymentQrBody = Type.Object(
  {
    ...paymentFields,
    format: Type.Optional(
      StringEnum(['svg', 'png', 'payload'], '`svg` (default), `png` (base64), or `payload` for the text alone.'),
    ),
  },
  { title: 'PaymentQrRequest' },
);

export const PaymentQrFields = Type.Object(
  { ...paymentFields, standard: StringEnum(['epc', 'swiss_qr_bill']) },
  { title: 'PaymentQrFields', description: 'The payment read from the code, as POST /v1/payment/qr takes it.' },
);

export const PaymentQrAnswer = Type.Object(
  {
    standard: StringEnum(['epc', 'swiss_qr_bill']),
    payload: Type.String({ description: 'The text the code carries, lines joined by \\n.' }),
    image: Type.Optional(
      Type.Object({
        format: StringEnum(['svg', 'png']),
        media_type: StringEnum(['image/svg+xml', 'image/png']),
        data: Type.String({ description: 'The SVG text, or the PNG in base64.' }),
      }),
    ),
    attribution: Type.Optional(Attribution),
  },
  { title: 'PaymentQr' },
);

export const PaymentQrReadBody = Type.Object(
  {
    payload: Type.Optional(Text(4000, 'The text of a payment QR code.')),
    image: Type.Optional(
      Type.String({
        maxLength: 1_048_576,
        description: 'A PNG or JPEG in base64 (a `data:` URL is accepted), at most 4096 px a side and 8 megapixels.',
      }),
    ),
  },
  { title: 'PaymentQrReadRequest' },
);

/** The payment check's answer (POST /v1/payment/check). */
export const PaymentCheckResult = Open({
  valid: Type.Boolean(),
  errors: Type.Array(Open({ code: Type.String(), field: Type.String(), message: Type.String() })),
  warnings: Type.Array(Open({ code: Type.String(), message: Type.String() })),
});

export const PaymentQrReadAnswer = Type.Object(
  {
    standard: StringEnum(['epc', 'swiss_qr_bill']),
    payload: Type.String({ description: 'The text read.' }),
    fields: PaymentQrFields,
    check: PaymentCheckResult,
    attribution: Type.Optional(Attribution),
  },
  { title: 'PaymentQrRead' },
);
