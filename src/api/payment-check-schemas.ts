/**
 * The body and answer of POST /v1/payment/check (docs/api.md, "POST /v1/payment/check"). The
 * body's members are exported one by one, so that a route taking the same payment plus its own
 * members (the payment QR code) declares it once.
 */
import { Type } from 'typebox';
import { PAYMENT_ISSUES, PAYMENT_SCHEMES, type PaymentIssueCode } from '../transfer/check.ts';
import { IbanResult } from './iban-schemas.ts';
import { ReferenceResultSchema } from './references-schemas.ts';
import { Attribution, orNull, StringEnum } from './schemas.ts';

/**
 * A payment's objects are closed: a member they do not take is refused (400), at any depth, where
 * other routes ignore it, because a misspelt `remittance` or an address's `city` for `town` would
 * otherwise make a code that pays without them.
 */
export const CLOSED = { additionalProperties: false } as const;

/** Long enough for any real value: a value over the scheme's limit is judged (name_too_long ...), not refused. */
const Text = (description: string, maxLength = 1000) => Type.String({ maxLength, description });

export const PaymentAddress = Type.Object(
  {
    street: Type.Optional(Text('Street, at most 70 characters.')),
    building_number: Type.Optional(Text('Building number, at most 16 characters.')),
    postal_code: Type.Optional(Text('Postal code, at most 16 characters (needed when an address is given).')),
    town: Type.Optional(Text('Town, at most 35 characters (needed when an address is given).')),
    country: Type.Optional(Text('ISO 3166 two-letter country code.', 16)),
  },
  { ...CLOSED, title: 'PaymentAddress', description: 'A structured address (Swiss QR-bill address type S).' },
);

export const PaymentBodyProperties = {
  creditor: Type.Object(
    {
      iban: Type.String({ maxLength: 64, description: 'The IBAN paid to; separators allowed.' }),
      bic: Type.Optional(Type.String({ maxLength: 32, description: 'The BIC, checked against the IBAN’s bank.' })),
      name: Text('The creditor’s name, at most 70 characters.'),
      address: Type.Optional(PaymentAddress),
    },
    { ...CLOSED, description: 'Who is paid. A Swiss QR-bill needs `address`.' },
  ),
  amount: Type.Optional(
    Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
      description:
        '0.01 to 999999999.99, at most 2 decimals, a dot as decimal mark; absent when the payer fills it in.',
    }),
  ),
  currency: Type.String({ maxLength: 16, description: 'SCT: EUR; Swiss QR-bill: CHF or EUR.' }),
  reference: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'A structured reference: its type is told as /v1/reference/validate tells it, with the IBAN’s country.',
    }),
  ),
  remittance: Type.Optional(Text('Unstructured remittance text, at most 140 characters.')),
  debtor: Type.Optional(
    Type.Object(
      { name: Text('The payer’s name, at most 70 characters.'), address: Type.Optional(PaymentAddress) },
      {
        ...CLOSED,
        description: 'The payer, when the code should name them (a Swiss QR-bill carries name and address).',
      },
    ),
  ),
  scheme: Type.Optional(
    StringEnum(PAYMENT_SCHEMES, '`sct` (SEPA credit transfer); `swiss_qr_bill` is the default for a CH or LI IBAN.'),
  ),
};

export const PaymentCheckBody = Type.Object(PaymentBodyProperties, { ...CLOSED, title: 'PaymentCheckRequest' });

export const PaymentIssueSchema = Type.Object(
  {
    code: StringEnum(
      Object.keys(PAYMENT_ISSUES).filter((code): code is PaymentIssueCode => code in PAYMENT_ISSUES),
      'docs/api.md, "POST /v1/payment/check".',
    ),
    field: Type.String({
      description: 'The body member at fault, as a path: `creditor.iban`, `amount`, `debtor.address.town`.',
    }),
    message: Type.String(),
  },
  { title: 'PaymentIssue' },
);

export const PaymentCheckResult = Type.Object(
  {
    valid: Type.Boolean({ description: 'No errors (warnings allowed).' }),
    scheme: StringEnum(PAYMENT_SCHEMES, 'The scheme judged against: as sent, or the default for the IBAN.'),
    iban: IbanResult,
    reference: orNull(
      ReferenceResultSchema,
      'The reference answer, as /v1/reference/validate gives it; null without a reference.',
    ),
    errors: Type.Array(PaymentIssueSchema),
    warnings: Type.Array(PaymentIssueSchema, { description: '`bic_mismatch`, `reference_and_remittance`.' }),
  },
  { title: 'PaymentCheck' },
);

export const PaymentCheckAnswer = Type.Object(
  { ...PaymentCheckResult.properties, attribution: Type.Optional(Attribution) },
  { title: 'PaymentCheckAnswer' },
);
