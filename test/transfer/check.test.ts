/**
 * The payment check (src/transfer/check.ts) over the real validate answer (src/describe.ts on
 * the built-in data): every part judged, the parts against each other, each error with its field.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Describe, createDescribe } from '../../src/describe.ts';
import { loadDataPlane } from '../../src/data/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { checkPayment, type PaymentInput, paymentAmount } from '../../src/transfer/check.ts';

const DE = 'DE89 3704 0044 0532 0130 00';
const QR_IBAN = 'CH44 3199 9123 0008 8901 2';
const CH_IBAN = 'CH93 0076 2011 6238 5295 7';
const QRR = '21 00000 00003 13947 14300 09017';
const ADDRESS = { street: 'Bahnhofstrasse', building_number: '1', postal_code: '8001', town: 'Zürich', country: 'CH' };

let describeIban: Describe;
before(async () => {
  describeIban = createDescribe(await loadDataPlane(openSqliteStore('sqlite::memory:')));
});
const check = (input: PaymentInput) => checkPayment(input, { describe: describeIban });
const issues = (list: { code: string; field: string }[]) => list.map((i) => `${i.code}@${i.field}`);

describe('a SEPA credit transfer', () => {
  test('valid: the IBAN answer is validate’s own, the RF reference is judged, nothing to report', () => {
    const r = check({
      creditor: { iban: DE, name: 'Musterfirma GmbH', bic: 'COBADEFFXXX' },
      amount: '1234.50',
      currency: 'EUR',
      reference: 'RF18 5390 0754 7034',
    });
    assert.deepEqual([r.valid, r.scheme, r.errors, r.warnings], [true, 'sct', [], []]);
    assert.deepEqual(r.iban, describeIban(DE, 'COBADEFFXXX'));
    assert.equal(r.iban.bank?.bic, 'COBADEFFXXX');
    assert.deepEqual([r.reference?.type, r.reference?.valid], ['rf', true]);
  });

  test('every part wrong at once: each error names its field', () => {
    const r = check({
      creditor: { iban: 'DE89 3704 0044 0532 0130 01', name: 'x'.repeat(71), bic: 'COBA-DEFF' },
      amount: '12.345',
      currency: 'CHF',
      reference: 'RF19 5390 0754 7034',
      remittance: 'y'.repeat(141),
      debtor: { name: '  ', address: { town: 'T'.repeat(36), postal_code: '1', country: 'Deutschland' } },
    });
    assert.equal(r.valid, false);
    assert.deepEqual(issues(r.errors), [
      'invalid_bic@creditor.bic',
      'iban_invalid@creditor.iban',
      'name_too_long@creditor.name',
      'amount_invalid@amount',
      'currency_not_allowed@currency',
      'reference_invalid@reference',
      'remittance_too_long@remittance',
      'name_missing@debtor.name',
      'address_invalid@debtor.address.town',
      'address_invalid@debtor.address.country',
    ]);
    assert.equal(r.iban.valid, false);
    assert.equal(r.reference?.suggestions[0], 'RF18539007547034');
    for (const e of r.errors) assert.ok(e.message.length > 0);
  });

  test('an address country is an ISO 3166 code, not any two letters', () => {
    const address = (country: string) => ({ street: 'Rue du Lac', postal_code: '2501', town: 'Biel', country });
    const faults = (country: string) =>
      check({
        creditor: { iban: 'CH4431999123000889012', name: 'Robert Schneider AG', address: address(country) },
        currency: 'CHF',
        reference: '210000000003139471430009017',
      }).errors.filter((e) => e.field === 'creditor.address.country');
    assert.deepEqual(faults('CH'), []);
    assert.deepEqual(faults('li'), []);
    assert.match(faults('XX')[0]?.message ?? '', /^XX is not an ISO 3166 country code/);
    assert.match(faults('')[0]?.message ?? '', /^The country is missing/);
  });

  test('warnings: a BIC of another bank, and a reference with a remittance text', () => {
    const r = check({
      creditor: { iban: DE, name: 'Musterfirma GmbH', bic: 'DEUTDEFF' },
      currency: 'EUR',
      reference: 'RF18539007547034',
      remittance: 'Invoice 2026-118',
    });
    assert.equal(r.valid, true, 'warnings do not make a payment invalid');
    assert.deepEqual(issues(r.warnings), ['bic_mismatch@creditor.bic', 'reference_and_remittance@remittance']);
    assert.match(r.warnings[0]?.message ?? '', /COBADEFFXXX/);
  });

  test('an IBAN outside the SEPA scope', () => {
    const r = check({ creditor: { iban: 'TR33 0006 1005 1978 6457 8413 26', name: 'Firma' }, currency: 'EUR' });
    assert.equal(r.iban.valid, true);
    assert.deepEqual(issues(r.errors), ['outside_sepa@creditor.iban']);
  });

  test('a Belgian structured communication on a Belgian IBAN is read as Belgian', () => {
    const r = check({
      creditor: { iban: 'BE71 0961 2345 6769', name: 'SA Exemple' },
      currency: 'EUR',
      reference: '090933755493',
    });
    assert.deepEqual([r.reference?.type, r.reference?.valid, r.valid], ['be_ogm', true, true]);
  });
});

describe('a Swiss QR-bill', () => {
  test('QR-IBAN with a QR reference: the default scheme for CH, valid', () => {
    const r = check({
      creditor: { iban: QR_IBAN, name: 'Robert Schneider AG', address: ADDRESS },
      currency: 'CHF',
      amount: 1949.75,
      reference: QRR,
    });
    assert.deepEqual([r.scheme, r.valid, r.iban.qr_iban, r.reference?.type], ['swiss_qr_bill', true, true, 'qrr']);
    assert.deepEqual(r.errors, []);
    const prefixed = check({
      creditor: { iban: `IBAN: ${QR_IBAN.toLowerCase()}`, name: 'AG', address: ADDRESS },
      currency: 'CHF',
      reference: QRR,
    });
    assert.deepEqual([prefixed.scheme, prefixed.valid], ['swiss_qr_bill', true]);
  });

  test('QR-IBAN without a QR reference, and a QR reference on an ordinary IBAN', () => {
    const noRef = check({ creditor: { iban: QR_IBAN, name: 'AG', address: ADDRESS }, currency: 'CHF' });
    assert.deepEqual(issues(noRef.errors), ['qr_iban_needs_qrr@reference']);
    const rf = check({
      creditor: { iban: QR_IBAN, name: 'AG', address: ADDRESS },
      currency: 'CHF',
      reference: 'RF18539007547034',
    });
    assert.deepEqual(issues(rf.errors), ['qr_iban_needs_qrr@reference']);
    const ordinary = check({
      creditor: { iban: CH_IBAN, name: 'AG', address: ADDRESS },
      currency: 'CHF',
      reference: QRR,
    });
    assert.equal(ordinary.iban.qr_iban, false);
    assert.deepEqual(issues(ordinary.errors), ['qrr_needs_qr_iban@creditor.iban']);
    const scor = check({
      creditor: { iban: CH_IBAN, name: 'AG', address: ADDRESS },
      currency: 'EUR',
      reference: 'RF18539007547034',
    });
    assert.deepEqual(scor.errors, []);
  });

  test('needs the creditor address, CHF or EUR, a CH or LI IBAN, and no national reference of another kind', () => {
    const r = check({ creditor: { iban: CH_IBAN, name: 'AG' }, currency: 'USD' });
    assert.deepEqual(issues(r.errors), ['address_missing@creditor.address', 'currency_not_allowed@currency']);
    const german = check({
      creditor: { iban: DE, name: 'GmbH', address: ADDRESS },
      currency: 'EUR',
      scheme: 'swiss_qr_bill',
    });
    assert.deepEqual(issues(german.errors), ['iban_not_swiss@creditor.iban']);
    const sctInChf = check({ creditor: { iban: CH_IBAN, name: 'AG' }, currency: 'CHF', scheme: 'sct' });
    assert.deepEqual(issues(sctInChf.errors), ['currency_not_allowed@currency']);
    const reference = check({
      creditor: { iban: CH_IBAN, name: 'AG', address: ADDRESS },
      currency: 'CHF',
      reference: '1234561',
    });
    assert.deepEqual(issues(reference.errors), ['reference_invalid@reference']);
    assert.equal(reference.reference?.type, 'qrr', 'digits on a Swiss QR-bill are read as a QR reference');
    const belgian = check({
      creditor: { iban: CH_IBAN, name: 'AG', address: ADDRESS },
      currency: 'CHF',
      reference: '+++090/9337/55493+++',
    });
    assert.deepEqual([belgian.reference?.valid, issues(belgian.errors)], [true, ['reference_invalid@reference']]);
    assert.match(belgian.errors[0]?.message ?? '', /QR reference or an RF/);
  });
});

test('amounts: 0.01 to 999999999.99, at most 2 decimals, as a string or a number', () => {
  assert.equal(paymentAmount('1234.5'), '1234.50');
  assert.equal(paymentAmount(1949.75), '1949.75');
  assert.equal(paymentAmount('0.01'), '0.01');
  assert.equal(paymentAmount(999999999.99), '999999999.99');
  for (const bad of [
    '0',
    '0.00',
    '1,50',
    '1 000',
    '-5',
    '12.345',
    '1000000000',
    'abc',
    '',
    0.1 + 0.2,
    Number.NaN,
    1e21,
  ]) {
    assert.equal(paymentAmount(bad), null, String(bad));
  }
});
