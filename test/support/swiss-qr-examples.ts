/**
 * The Swiss Implementation Guidelines' QR-bill examples (and EPC069-12's example code) as
 * payload text, for the tests that write, read and draw them (test/transfer/payloads.test.ts,
 * draw.test.ts, test/routes/payment-qr.test.ts).
 */

/** A payload from its lines. */
export const lines = (...l: string[]) => l.join('\n');
/** EPC069-12, the example code (version 001, Belgian Red Cross). */
export const EPC_001_EXAMPLE = lines(
  'BCD',
  '001',
  '1',
  'SCT',
  'BPOTBEB1',
  'Red Cross of Belgium',
  'BE72000000001616',
  'EUR1',
  'CHAR',
  '',
  'Urgency fund',
);

export const SEVEN_EMPTY = ['', '', '', '', '', '', ''];
/** The creditor of the examples, a structured address (S). */
const BIEL = ['S', 'Robert Schneider AG', 'Rue du Lac', '1268', '2501', 'Biel', 'CH'];
/** The debtor of the examples. */
const RORSCHACH = ['S', 'Pia-Maria Rutschmann-Schnyder', 'Grosse Marktgasse', '28', '9400', 'Rorschach', 'CH'];

/** Example 1 (QR-IBAN, QR reference, debtor, message) up to EPD: what the service writes for it. */
export const SWISS_QRR_UP_TO_EPD = lines(
  'SPC',
  '0200',
  '1',
  'CH4431999123000889012',
  ...BIEL,
  ...SEVEN_EMPTY,
  '1949.75',
  'CHF',
  ...RORSCHACH,
  'QRR',
  '210000000003139471430009017',
  'Order dated 18.06.2020',
  'EPD',
);

/** Example 1 as published: with billing information and two alternative procedures. */
export const SWISS_QRR_EXAMPLE = lines(
  SWISS_QRR_UP_TO_EPD,
  '//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:139.40/40/0:30',
  'Name AV1: UV;UltraPay005;12345',
  'Name AV2: XY;XYService;54321',
);

/** The example with an IBAN and an RF creditor reference (SCOR), no message. */
export const SWISS_SCOR_EXAMPLE = lines(
  'SPC',
  '0200',
  '1',
  'CH5800791123000889012',
  ...BIEL,
  ...SEVEN_EMPTY,
  '199.95',
  'CHF',
  ...RORSCHACH,
  'SCOR',
  'RF18539007547034',
  '',
  'EPD',
);
