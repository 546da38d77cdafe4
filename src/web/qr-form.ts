/**
 * The fields of the /qr page, each tied to the body member of POST /v1/payment/qr it fills
 * (`field`), so that an error the API names by that member is shown beside its input.
 */
export const QR_FORM_FIELDS = [
  {
    id: 'qr-standard',
    field: 'standard',
    label: 'Standard',
    hint: 'Automatic: a Swiss QR-bill for a CH or LI IBAN, else an EPC QR code.',
    options: [
      ['', 'Automatic, by the IBAN'],
      ['epc', 'EPC QR code (GiroCode), EUR'],
      ['swiss_qr_bill', 'Swiss QR-bill, CHF or EUR'],
    ],
  },
  { id: 'qr-name', field: 'creditor.name', label: 'Paid to (name)', placeholder: 'ACME GmbH' },
  { id: 'qr-iban', field: 'creditor.iban', label: 'IBAN', mono: true, placeholder: 'DE89 3704 0044 0532 0130 00' },
  { id: 'qr-bic', field: 'creditor.bic', label: 'BIC', optional: true, mono: true, placeholder: 'COBADEFFXXX' },
  {
    id: 'qr-amount',
    field: 'amount',
    label: 'Amount',
    optional: true,
    half: true,
    placeholder: '149.90',
    hint: 'Without it, the payer types the amount.',
  },
  {
    id: 'qr-currency',
    field: 'currency',
    label: 'Currency',
    half: true,
    hint: 'CHF for a CH or LI IBAN, else EUR (always for EPC), until you pick one.',
    options: [
      ['EUR', 'EUR'],
      ['CHF', 'CHF'],
    ],
  },
  {
    id: 'qr-reference',
    field: 'reference',
    label: 'Reference',
    optional: true,
    mono: true,
    placeholder: 'RF18 5390 0754 7034',
    hint: 'An RF creditor reference, or a 27-digit QR reference for a Swiss QR-IBAN.',
  },
  {
    id: 'qr-remittance',
    field: 'remittance',
    label: 'Message to the payee',
    optional: true,
    placeholder: 'Invoice 2026-118',
  },
  { group: 'creditor.address', legend: 'Address of the payee', hint: 'Needed for a Swiss QR-bill.' },
  { id: 'qr-street', field: 'creditor.address.street', label: 'Street', optional: true, placeholder: 'Rue du Lac' },
  { id: 'qr-building', field: 'creditor.address.building_number', label: 'Number', optional: true, half: true },
  { id: 'qr-postal-code', field: 'creditor.address.postal_code', label: 'Postal code', half: true },
  { id: 'qr-town', field: 'creditor.address.town', label: 'Town', placeholder: 'Biel' },
  {
    id: 'qr-country',
    field: 'creditor.address.country',
    label: 'Country',
    half: true,
    placeholder: 'CH',
    hint: 'Two letters.',
  },
  { end: true },
];
