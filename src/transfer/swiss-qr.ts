/**
 * The Swiss QR code of a QR-bill (Swiss Implementation Guidelines for the QR-bill, version
 * 2.3): 31 lines from `SPC` to `EPD`. Addresses are structured (type `S`); the combined type
 * `K` left the standard with version 2.3, so a payload using it is not read.
 */
import type { PaymentIssue } from './check.ts';
import {
  amountText,
  type Built,
  characterErrors,
  electronic,
  type FieldError,
  type Parsed,
  type PostalAddress,
  payloadLines,
  type QrPaymentFields,
} from './qr-fields.ts';

/** The guidelines' field lengths of a structured address. */
const ADDRESS_MAX = [
  ['street', 70],
  ['building_number', 16],
  ['postal_code', 16],
  ['town', 35],
] as const satisfies readonly (readonly [keyof PostalAddress, number])[];

const EMPTY_PARTY = ['', '', '', '', '', '', ''];

function addressErrors(address: PostalAddress | undefined, at: string): FieldError[] {
  if (!address)
    return [
      {
        code: 'address_missing',
        field: `${at}.address`,
        message: 'A Swiss QR-bill needs the structured address: postal_code, town and country at least.',
      },
    ];
  const errors = characterErrors(
    Object.fromEntries(Object.entries(address).map(([part, value]) => [`${at}.address.${part}`, value])),
    'swiss_qr_bill',
  );
  for (const part of ['postal_code', 'town'] as const) {
    if (!address[part]?.trim())
      errors.push({ code: 'address_invalid', field: `${at}.address.${part}`, message: `${part} is empty.` });
  }
  for (const [part, max] of ADDRESS_MAX) {
    const value = address[part] ?? '';
    if ([...value.trim()].length > max)
      errors.push({
        code: 'address_invalid',
        field: `${at}.address.${part}`,
        message: `${part} has more than ${max} characters.`,
      });
  }
  if (!/^[A-Za-z]{2}$/.test(address.country?.trim() ?? ''))
    errors.push({
      code: 'address_invalid',
      field: `${at}.address.country`,
      message: 'country is a two-letter ISO 3166 code.',
    });
  return errors;
}

/** Type S, name, street, building number, postal code, town, country. */
const partyLines = (name: string, a: PostalAddress): string[] => [
  'S',
  name.trim(),
  a.street?.trim() ?? '',
  a.building_number?.trim() ?? '',
  a.postal_code?.trim() ?? '',
  a.town?.trim() ?? '',
  a.country?.trim().toUpperCase() ?? '',
];

/** QRR for a 27-digit QR reference, SCOR for an RF creditor reference, NON without one. */
function referenceLines(reference: string | undefined): [string, string] | FieldError {
  if (!reference?.trim()) return ['NON', ''];
  const written = electronic(reference);
  if (/^[0-9]{27}$/.test(written)) return ['QRR', written];
  if (written.startsWith('RF')) return ['SCOR', written];
  return {
    code: 'reference_invalid',
    field: 'reference',
    message: 'A Swiss QR-bill carries a QR reference (27 digits) or an RF creditor reference (ISO 11649).',
  };
}

export function buildSwissPayload(fields: QrPaymentFields): Built {
  const { creditor, debtor } = fields;
  const errors: FieldError[] = [
    ...characterErrors(
      {
        'creditor.name': creditor.name,
        'debtor.name': debtor?.name,
        reference: fields.reference,
        remittance: fields.remittance,
      },
      'swiss_qr_bill',
    ),
    ...addressErrors(creditor.address, 'creditor'),
    ...(debtor ? addressErrors(debtor.address, 'debtor') : []),
  ];
  if (!/^(CH|LI)/.test(electronic(creditor.iban)))
    errors.push({
      code: 'iban_not_swiss',
      field: 'creditor.iban',
      message: 'A Swiss QR-bill is paid to a CH or LI IBAN; use the EPC standard for other accounts.',
    });
  const reference = referenceLines(fields.reference);
  if (!Array.isArray(reference)) errors.push(reference);
  const amount = fields.amount === undefined ? '' : amountText(fields.amount);
  if (amount === null) errors.push({ code: 'amount_invalid', field: 'amount', message: 'The amount is not valid.' });
  if (errors.length > 0 || !Array.isArray(reference) || amount === null || !creditor.address)
    return { ok: false, errors };
  const lines = [
    'SPC',
    '0200',
    '1',
    electronic(creditor.iban),
    ...partyLines(creditor.name, creditor.address),
    ...EMPTY_PARTY,
    amount,
    fields.currency.trim().toUpperCase(),
    ...(debtor?.address ? partyLines(debtor.name, debtor.address) : EMPTY_PARTY),
    ...reference,
    fields.remittance?.trim() ?? '',
    'EPD',
  ];
  return { ok: true, payload: lines.join('\n') };
}

function partyOf(lines: string[], at: number): { name: string; address: PostalAddress } {
  const [, name = '', street = '', building = '', postal = '', town = '', country = ''] = lines.slice(at, at + 7);
  const address: PostalAddress = {
    ...(street && { street }),
    ...(building && { building_number: building }),
    postal_code: postal,
    town,
    country,
  };
  return { name, address };
}

/** What the reference line (29) holds after each reference type (line 28): with NON, nothing. */
const REFERENCE_LINE = {
  QRR: { fits: (reference: string) => /^[0-9]{27}$/.test(reference), needs: 'a QR reference (27 digits) on line 29' },
  SCOR: { fits: (reference: string) => /^RF/i.test(reference), needs: 'an RF creditor reference on line 29' },
  NON: { fits: (reference: string) => reference === '', needs: 'line 29 empty' },
} as const;
type ReferenceType = keyof typeof REFERENCE_LINE;
const isReferenceType = (type: string): type is ReferenceType => Object.hasOwn(REFERENCE_LINE, type);

/**
 * The guidelines' rules a payload can break with its fields still read, in line order: the
 * ultimate creditor (lines 12 to 18) is reserved and stays empty; the amount (line 19) has two
 * decimals and no leading zeros; the reference (line 29) is the kind its type (line 28) names.
 */
function lineErrors(lines: string[], referenceType: ReferenceType, reference: string): PaymentIssue[] {
  const errors: PaymentIssue[] = [];
  const ultimate = lines.slice(11, 18);
  const filled = ultimate.findIndex((line) => line !== '');
  if (filled >= 0)
    errors.push({
      code: 'ultimate_creditor_filled',
      field: 'ultimate_creditor',
      message: `Lines 12 to 18 (the ultimate creditor) are reserved and must be empty; line ${12 + filled} holds "${ultimate[filled]}".`,
    });
  const amount = lines[18] ?? '';
  const written = amountText(amount);
  // An amount that is no amount at all (1,949.75) is the payment check's amount_invalid.
  if (written !== null && written !== amount)
    errors.push({
      code: 'amount_invalid',
      field: 'amount',
      message: `Line 19 (the amount) is "${amount}"; a Swiss QR code writes it with two decimals and no leading zeros: "${written}".`,
    });
  if (!REFERENCE_LINE[referenceType].fits(reference))
    errors.push({
      code: 'reference_type_mismatch',
      field: 'reference',
      message: `The reference type (line 28) is ${referenceType}, which needs ${REFERENCE_LINE[referenceType].needs}; line 29 (the reference) ${reference ? `holds "${reference}"` : 'is empty'}.`,
    });
  return errors;
}

/**
 * The body fields of a Swiss QR code; billing information and alternative procedures are left
 * out. A reference is given as written, whatever its type says (lineErrors names a mismatch).
 */
export function parseSwissPayload(payload: string): Parsed {
  const lines = payloadLines(payload);
  const refuse = (why: string): Parsed => ({ ok: false, message: `Starts as a Swiss QR code (SPC) but ${why}.` });
  if (lines[0] !== 'SPC') return { ok: false, message: 'Not a Swiss QR code: the first line is not SPC.' };
  if (!/^02[0-9]{2}$/.test(lines[1] ?? '')) return refuse(`its version is "${lines[1]}", not 02xx`);
  if (lines[2] !== '1') return refuse('its coding type is not 1');
  if (lines.length < 31 || lines.length > 34) return refuse(`it has ${lines.length} lines, not 31 to 34`);
  if (lines[30] !== 'EPD') return refuse('line 31 is not the trailer EPD');
  if (lines[4] !== 'S') return refuse(`the creditor's address type is "${lines[4]}", not S (structured)`);
  if (!['', 'S'].includes(lines[20] ?? '')) return refuse(`the debtor's address type is "${lines[20]}", not S`);
  const [referenceType = '', reference = '', message = ''] = lines.slice(27, 30);
  if (!isReferenceType(referenceType)) return refuse(`its reference type is "${referenceType}", not QRR, SCOR or NON`);
  const creditor = partyOf(lines, 4);
  const debtor = lines[20] === 'S' ? partyOf(lines, 20) : null;
  const amount = lines[18] ?? '';
  const fields: QrPaymentFields = {
    standard: 'swiss_qr_bill',
    creditor: { iban: lines[3] ?? '', name: creditor.name, address: creditor.address },
    ...(amount && { amount: amountText(amount) ?? amount }),
    currency: lines[19] ?? '',
    ...(debtor && { debtor }),
    ...(reference && { reference }),
    ...(message && { remittance: message }),
  };
  return { ok: true, fields, errors: lineErrors(lines, referenceType, reference) };
}
