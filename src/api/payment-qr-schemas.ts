/** The bodies and answers of POST /v1/payment/qr and /v1/payment/qr/read. */
import { Type } from 'typebox';
import { CLOSED, PaymentBodyProperties, PaymentCheckResult, PaymentIssueSchema } from './payment-check-schemas.ts';
import { Attribution, StringEnum } from './schemas.ts';

const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });

const Standard = StringEnum(
  ['epc', 'swiss_qr_bill'],
  '`epc` (EPC QR code, "GiroCode"), by default; `swiss_qr_bill` by default for a CH or LI IBAN.',
);

/** The payment as the QR code carries it: the body of POST /v1/payment/check, with its standard. */
const paymentFields = { standard: Type.Optional(Standard), ...PaymentBodyProperties };

export const PaymentQrBody = Type.Object(
  {
    ...paymentFields,
    format: Type.Optional(
      StringEnum(['svg', 'png', 'payload'], '`svg` (default), `png` (base64), or `payload` for the text alone.'),
    ),
  },
  { ...CLOSED, title: 'PaymentQrRequest' },
);

export const PaymentQrFields = Type.Object(
  { ...paymentFields, standard: Standard },
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
    warnings: Type.Array(PaymentIssueSchema, {
      description:
        'The payment check’s warnings, which do not stop the code (`reference_and_remittance`: the text was left out; `bic_mismatch`: the BIC written is not the IBAN’s bank’s); empty when none.',
    }),
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
