/**
 * The EPC QR and Swiss QR-bill payloads, written and read, against the standards' published
 * examples: EPC069-12's example code (version 001) and the version 002 example of the EPC QR
 * code as commonly cited, and the Swiss Implementation Guidelines' examples (QR-IBAN with a QR
 * reference, IBAN with an RF creditor reference).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildEpcPayload, parseEpcPayload } from '../../src/transfer/epc-qr.ts';
import type { QrPaymentFields } from '../../src/transfer/qr-fields.ts';
import { amountText } from '../../src/transfer/qr-fields.ts';
import { readPayload } from '../../src/transfer/read-payload.ts';
import { buildSwissPayload, parseSwissPayload } from '../../src/transfer/swiss-qr.ts';
import {
  EPC_001_EXAMPLE,
  lines,
  SEVEN_EMPTY,
  SWISS_QRR_EXAMPLE,
  SWISS_QRR_UP_TO_EPD,
  SWISS_SCOR_EXAMPLE,
} from '../support/swiss-qr-examples.ts';

/** The version 002 example: BIC, a name outside ASCII, purpose GDDS and an RF reference. */
const EPC_002_EXAMPLE = lines(
  'BCD',
  '002',
  '1',
  'SCT',
  'BHBLDEHHXXX',
  'Franz Mustermänn',
  'DE71110220330123456789',
  'EUR12.3',
  'GDDS',
  'RF18539007547034',
);

const ROBERT_SCHNEIDER = {
  street: 'Rue du Lac',
  building_number: '1268',
  postal_code: '2501',
  town: 'Biel',
  country: 'CH',
};
const PIA_MARIA = {
  name: 'Pia-Maria Rutschmann-Schnyder',
  address: {
    street: 'Grosse Marktgasse',
    building_number: '28',
    postal_code: '9400',
    town: 'Rorschach',
    country: 'CH',
  },
};

const built = (r: ReturnType<typeof buildEpcPayload>) => {
  assert.ok(r.ok, JSON.stringify(r));
  return r.payload;
};
const codes = (r: ReturnType<typeof buildEpcPayload>) => (r.ok ? [] : r.errors.map((e) => `${e.code} ${e.field}`));

describe('amounts', () => {
  test('are written with a dot and two decimals, from a string or a number', () => {
    assert.equal(amountText('12.3'), '12.30');
    assert.equal(amountText(1949.75), '1949.75');
    assert.equal(amountText('1'), '1.00');
    assert.equal(amountText('999999999.99'), '999999999.99');
    for (const bad of ['0', '0.00', '1.234', '1,50', '-1', '1000000000', 'NaN', ''])
      assert.equal(amountText(bad), null, bad);
    assert.equal(amountText(Number.NaN), null);
  });
});

describe('EPC QR payload', () => {
  test('the version 002 example, written: the same lines, its purpose left empty (the route sets none)', () => {
    const payload = built(
      buildEpcPayload({
        creditor: { iban: 'DE71 1102 2033 0123 4567 89', bic: 'bhbl dehh xxx', name: 'Franz Mustermänn' },
        amount: '12.3',
        currency: 'EUR',
        reference: 'RF18 5390 0754 7034',
      }),
    );
    assert.equal(payload, EPC_002_EXAMPLE.replace('EUR12.3\nGDDS', 'EUR12.30\n'));
  });

  test('stops after the last line with a value; an empty BIC and amount keep their lines', () => {
    assert.equal(
      built(buildEpcPayload({ creditor: { iban: 'BE72000000001616', name: 'Red Cross of Belgium' }, currency: 'EUR' })),
      lines('BCD', '002', '1', 'SCT', '', 'Red Cross of Belgium', 'BE72000000001616'),
    );
    assert.equal(
      built(
        buildEpcPayload({
          creditor: { iban: 'BE72000000001616', bic: 'BPOTBEB1', name: 'Red Cross of Belgium' },
          amount: 1,
          currency: 'EUR',
          remittance: 'Urgency fund',
        }),
      ),
      lines(
        'BCD',
        '002',
        '1',
        'SCT',
        'BPOTBEB1',
        'Red Cross of Belgium',
        'BE72000000001616',
        'EUR1.00',
        '',
        '',
        'Urgency fund',
      ),
    );
  });

  test('carries the RF reference and drops the remittance when given both', () => {
    const payload = built(
      buildEpcPayload({
        creditor: { iban: 'DE89370400440532013000', name: 'ACME' },
        currency: 'EUR',
        reference: 'RF18539007547034',
        remittance: 'Invoice 7',
      }),
    );
    assert.equal(payload.split('\n').at(-1), 'RF18539007547034');
    assert.ok(!payload.includes('Invoice 7'));
  });

  test('refuses a reference that is not RF, a line break in a field, and a payload over 331 bytes', () => {
    const base = { creditor: { iban: 'BE72000000001616', name: 'Red Cross' }, currency: 'EUR' };
    assert.deepEqual(codes(buildEpcPayload({ ...base, reference: '+++090/9337/55493+++' })), [
      'reference_invalid reference',
    ]);
    assert.deepEqual(codes(buildEpcPayload({ ...base, creditor: { ...base.creditor, name: 'Red\nCross' } })), [
      'characters_invalid creditor.name',
    ]);
    // 140 characters of two bytes each fit the field's length but not the code's 331 bytes.
    const tooLong = buildEpcPayload({
      ...base,
      creditor: { ...base.creditor, name: 'é'.repeat(70) },
      remittance: 'ü'.repeat(140),
    });
    assert.deepEqual(codes(tooLong), ['payload_too_long remittance']);
    assert.ok(!tooLong.ok && /331/.test(tooLong.errors[0]?.message ?? ''));
    const fits = built(
      buildEpcPayload({ ...base, creditor: { ...base.creditor, name: 'e'.repeat(70) }, remittance: 'u'.repeat(140) }),
    );
    assert.ok(Buffer.byteLength(fits) <= 331);
  });

  test('reads the published examples of versions 001 and 002', () => {
    assert.deepEqual(parseEpcPayload(EPC_001_EXAMPLE), {
      ok: true,
      fields: {
        standard: 'epc',
        creditor: { iban: 'BE72000000001616', bic: 'BPOTBEB1', name: 'Red Cross of Belgium' },
        amount: '1.00',
        currency: 'EUR',
        remittance: 'Urgency fund',
      },
      errors: [],
    });
    assert.deepEqual(parseEpcPayload(EPC_002_EXAMPLE), {
      ok: true,
      fields: {
        standard: 'epc',
        creditor: { iban: 'DE71110220330123456789', bic: 'BHBLDEHHXXX', name: 'Franz Mustermänn' },
        amount: '12.30',
        currency: 'EUR',
        reference: 'RF18539007547034',
      },
      errors: [],
    });
    assert.equal(parseEpcPayload(EPC_002_EXAMPLE.replaceAll('\n', '\r\n')).ok, true, 'CR LF between lines');
  });

  test('reads a payload ended by a line break, and a wrong currency or amount as written (the check names them)', () => {
    const full = lines(
      'BCD',
      '002',
      '1',
      'SCT',
      '',
      'ACME',
      'DE89370400440532013000',
      'EUR5',
      '',
      '',
      'Rechnung',
      'Note',
    );
    assert.equal(parseEpcPayload(`${full}\n`).ok, true, 'twelve lines and a final line break');
    for (const [line, currency, amount] of [
      ['USD5', 'USD', '5.00'],
      ['EUR5,00', 'EUR', '5,00'],
      ['EUR1.234', 'EUR', '1.234'],
      ['EUR', 'EUR', undefined],
    ]) {
      const r = parseEpcPayload(full.replace('EUR5', line ?? ''));
      assert.ok(r.ok, line);
      assert.deepEqual([r.fields.currency, r.fields.amount], [currency, amount], line);
    }
  });

  test('refuses what departs from the standard, saying where', () => {
    const bad = (payload: string) => {
      const r = parseEpcPayload(payload);
      assert.ok(!r.ok);
      return r.message;
    };
    assert.match(bad(EPC_002_EXAMPLE.replace('002', '003')), /version/);
    assert.match(bad(EPC_002_EXAMPLE.replace('SCT', 'XCT')), /SCT/);
    assert.match(bad(EPC_002_EXAMPLE.replace('EUR12.3', '12.3')), /currency code/);
    assert.match(bad(lines('BCD', '002', '1', 'SCT', '', 'Name')), /IBAN/);
  });
});

const qrrBill: QrPaymentFields = {
  creditor: { iban: 'CH44 3199 9123 0008 8901 2', name: 'Robert Schneider AG', address: ROBERT_SCHNEIDER },
  amount: '1949.75',
  currency: 'CHF',
  debtor: PIA_MARIA,
  reference: '21 00000 00003 13947 14300 09017',
  remittance: 'Order dated 18.06.2020',
};

describe('Swiss QR-bill payload', () => {
  test("the guidelines' QR reference example, written: the same 31 lines up to EPD", () => {
    const payload = built(buildSwissPayload(qrrBill));
    assert.equal(payload, SWISS_QRR_UP_TO_EPD);
    assert.equal(payload.split('\n').length, 31);
  });

  test("the guidelines' RF creditor reference example, written", () => {
    const payload = built(
      buildSwissPayload({
        creditor: { iban: 'CH5800791123000889012', name: 'Robert Schneider AG', address: ROBERT_SCHNEIDER },
        amount: 199.95,
        currency: 'CHF',
        debtor: PIA_MARIA,
        reference: 'RF18 5390 0754 7034',
      }),
    );
    assert.equal(payload, SWISS_SCOR_EXAMPLE);
  });

  test('without amount, debtor or reference: empty amount, 7 empty debtor lines, NON', () => {
    const payload = built(
      buildSwissPayload({
        creditor: { iban: 'CH5800791123000889012', name: 'Robert Schneider AG', address: ROBERT_SCHNEIDER },
        currency: 'EUR',
      }),
    ).split('\n');
    assert.deepEqual(payload.slice(18, 31), ['', 'EUR', ...SEVEN_EMPTY, 'NON', '', '', 'EPD']);
  });

  test('needs the structured address and a CH or LI IBAN; names each field at fault', () => {
    const r = buildSwissPayload({ creditor: { iban: 'DE89370400440532013000', name: 'ACME' }, currency: 'CHF' });
    assert.deepEqual(codes(r), ['address_missing creditor.address', 'iban_not_swiss creditor.iban']);
    const long = buildSwissPayload({
      ...qrrBill,
      creditor: { ...qrrBill.creditor, address: { ...ROBERT_SCHNEIDER, town: 'T'.repeat(36), country: 'Schweiz' } },
      reference: '+++090/9337/55493+++',
    });
    assert.deepEqual(codes(long), [
      'address_invalid creditor.address.town',
      'address_invalid creditor.address.country',
      'reference_invalid reference',
    ]);
  });

  test('takes the Latin characters of the guidelines (4.1.1) and refuses any other, naming the field and the character', () => {
    const latin = 'Zoë Ørsted-Łukasiewicz Ștefan Țepeș, Straße 5, 100 €';
    assert.equal(built(buildSwissPayload({ ...qrrBill, remittance: latin })).split('\n')[29], latin);
    for (const [text, named] of [
      ['中文', '中'],
      ['Ä€😀', '😀'],
      ['Ǒscar', 'Ǒ'],
    ]) {
      const r = buildSwissPayload({ ...qrrBill, creditor: { ...qrrBill.creditor, name: text } });
      assert.deepEqual(codes(r), ['characters_invalid creditor.name'], text);
      assert.ok(!r.ok && r.errors[0]?.message.includes(`"${named}"`), text);
    }
    const street = buildSwissPayload({
      ...qrrBill,
      debtor: { ...PIA_MARIA, address: { ...PIA_MARIA.address, street: 'Grand-Rue 😀' } },
    });
    assert.deepEqual(codes(street), ['characters_invalid debtor.address.street']);
  });

  test('half a surrogate pair, which UTF-8 cannot write, is refused by both standards (the code would not match its payload)', () => {
    const epc = buildEpcPayload({ creditor: { iban: 'DE89370400440532013000', name: '\ud800' }, currency: 'EUR' });
    assert.deepEqual(codes(epc), ['characters_invalid creditor.name']);
    const swiss = buildSwissPayload({ ...qrrBill, remittance: 'Order \udc00' });
    assert.deepEqual(codes(swiss), ['characters_invalid remittance']);
    // Any other character, the EPC standard takes: it is UTF-8 throughout.
    assert.ok(
      buildEpcPayload({ creditor: { iban: 'DE89370400440532013000', name: '株式会社 😀' }, currency: 'EUR' }).ok,
    );
  });

  test("reads the guidelines' examples, billing information and alternative procedures left out", () => {
    assert.deepEqual(parseSwissPayload(SWISS_QRR_EXAMPLE), {
      ok: true,
      fields: {
        standard: 'swiss_qr_bill',
        creditor: { iban: 'CH4431999123000889012', name: 'Robert Schneider AG', address: ROBERT_SCHNEIDER },
        amount: '1949.75',
        currency: 'CHF',
        debtor: PIA_MARIA,
        reference: '210000000003139471430009017',
        remittance: 'Order dated 18.06.2020',
      },
      errors: [],
    });
    const scor = parseSwissPayload(SWISS_SCOR_EXAMPLE);
    assert.ok(scor.ok);
    assert.equal(scor.fields.reference, 'RF18539007547034');
    assert.equal(scor.fields.remittance, undefined);
  });

  test('reads a reference line that does not fit its type, naming the mismatch (QRR: 27 digits, SCOR: RF, NON: empty)', () => {
    const mismatch = (payload: string) => {
      const r = parseSwissPayload(payload);
      assert.ok(r.ok);
      return [r.fields.reference, r.errors.map((e) => `${e.code} ${e.field}: ${e.message}`)];
    };
    assert.deepEqual(mismatch(SWISS_SCOR_EXAMPLE.replace('\nSCOR\n', '\nQRR\n')), [
      'RF18539007547034',
      [
        'reference_type_mismatch reference: The reference type (line 28) is QRR, which needs a QR reference (27 digits) on line 29; line 29 (the reference) holds "RF18539007547034".',
      ],
    ]);
    assert.deepEqual(mismatch(SWISS_SCOR_EXAMPLE.replace('\nRF18539007547034\n', '\n\n')), [
      undefined,
      [
        'reference_type_mismatch reference: The reference type (line 28) is SCOR, which needs an RF creditor reference on line 29; line 29 (the reference) is empty.',
      ],
    ]);
  });

  test('refuses the combined address (K), gone since version 2.3, and a missing trailer', () => {
    const k = parseSwissPayload(SWISS_SCOR_EXAMPLE.replace('\nS\nRobert', '\nK\nRobert'));
    assert.ok(!k.ok && /not S/.test(k.message));
    const noTrailer = parseSwissPayload(SWISS_SCOR_EXAMPLE.replace('EPD', 'END'));
    assert.ok(!noTrailer.ok && /EPD/.test(noTrailer.message));
  });
});

describe('reading a payload', () => {
  test('names the standard, or qr_standard_unknown for anything else', () => {
    assert.equal((readPayload(EPC_002_EXAMPLE) as { standard: string }).standard, 'epc');
    assert.equal((readPayload(SWISS_QRR_EXAMPLE) as { standard: string }).standard, 'swiss_qr_bill');
    for (const other of ['https://example.com', 'WIFI:S:net;;', '', 'SPC\n0100'])
      assert.equal((readPayload(other) as { code?: string }).code, 'qr_standard_unknown', other);
  });

  test('read(make(x)) gives x back, for both standards', () => {
    const payments: QrPaymentFields[] = [
      { standard: 'epc', creditor: { iban: 'DE89370400440532013000', name: 'ACME GmbH' }, currency: 'EUR' },
      {
        standard: 'epc',
        creditor: { iban: 'FR1420041010050500013M02606', bic: 'PSSTFRPPLIL', name: 'Société Générale des Eaux' },
        amount: '0.01',
        currency: 'EUR',
        remittance: 'Facture 2026/11 — merci',
      },
      {
        standard: 'swiss_qr_bill',
        ...qrrBill,
        creditor: { ...qrrBill.creditor, iban: 'CH4431999123000889012' },
        reference: '210000000003139471430009017',
      },
      {
        standard: 'swiss_qr_bill',
        creditor: {
          iban: 'LI21088100002324013AA',
          name: 'Bäckerei Müller',
          address: { street: 'Städtle', postal_code: '9490', town: 'Vaduz', country: 'LI' },
        },
        currency: 'EUR',
        reference: 'RF18539007547034',
        remittance: 'Rechnung 12',
      },
    ];
    for (const payment of payments) {
      const made = payment.standard === 'epc' ? buildEpcPayload(payment) : buildSwissPayload(payment);
      assert.ok(made.ok, JSON.stringify(made));
      const read = readPayload(made.payload);
      assert.ok(read.ok);
      assert.deepEqual(read.fields, payment);
      assert.deepEqual(read.errors, [], 'a code made keeps every line of its standard');
    }
  });
});
