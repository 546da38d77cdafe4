/**
 * Account number to IBAN for every supported country: each registry example (or a published
 * real IBAN) rebuilt from its domestic parts written as people write them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AccountParts, FROM_ACCOUNT_COUNTRIES, ibanFromAccount } from '../../src/iban/from-account.ts';
import { validateIban } from '../../src/iban/index.ts';

const CASES: [AccountParts, string, string | null][] = [
  [{ country: 'DE', bank_code: '370 400 44', account: '532013000' }, 'DE89370400440532013000', null],
  [{ country: 'AT', bank_code: '19043', account: '234573201' }, 'AT611904300234573201', null],
  [{ country: 'CH', bank_code: '762', account: '0116-2385-2957' }, 'CH9300762011623852957', null],
  [{ country: 'LI', bank_code: '08810', account: '2324013AA' }, 'LI21088100002324013AA', null],
  [
    { country: 'FR', bank_code: '20041', branch_code: '01005', account: '0500013M026' },
    'FR1420041010050500013M02606',
    '06',
  ],
  [
    { country: 'MC', bank_code: '11222', branch_code: '00001', account: '01234567890' },
    'MC5811222000010123456789030',
    '30',
  ],
  [{ country: 'ES', bank_code: '2100', branch_code: '0418', account: '0200051332' }, 'ES9121000418450200051332', '45'],
  [{ country: 'IT', bank_code: '05428', branch_code: '11101', account: '123456' }, 'IT60X0542811101000000123456', 'X'],
  [
    { country: 'SM', bank_code: '03225', branch_code: '09800', account: '000000270100' },
    'SM86U0322509800000000270100',
    'U',
  ],
  [{ country: 'BE', account: '539-0075470-34' }, 'BE68539007547034', null],
  [{ country: 'BE', bank_code: '539', account: '539007547034' }, 'BE68539007547034', null],
  [{ country: 'NL', bank_code: 'abna', account: '417164300' }, 'NL91ABNA0417164300', null],
  [{ country: 'LU', bank_code: '001', account: '9400644750000' }, 'LU280019400644750000', null],
  [
    { country: 'PT', bank_code: '0002', branch_code: '0123', account: '12345678901' },
    'PT50000201231234567890154',
    '54',
  ],
  [{ country: 'FI', account: '123456-785' }, 'FI2112345600000785', null],
  [{ country: 'NO', account: '8601.11.17947' }, 'NO9386011117947', null],
  [{ country: 'PL', bank_code: '10901014', account: '0000 0712 1981 2874' }, 'PL61109010140000071219812874', null],
  [{ country: 'CZ', account: '19-2000145399/0800' }, 'CZ6508000000192000145399', null],
  [{ country: 'SK', bank_code: '1200', account: '19-8742637541' }, 'SK3112000000198742637541', null],
  [{ country: 'SI', account: '26330-0012039086' }, 'SI56263300012039086', null],
  [{ country: 'HR', bank_code: '1001005', account: '1863000160' }, 'HR1210010051863000160', null],
  [{ country: 'EE', bank_code: '22', account: '221020145685' }, 'EE382200221020145685', null],
  [{ country: 'LT', bank_code: '10000', account: '11101001000' }, 'LT121000011101001000', null],
  [{ country: 'LV', bank_code: 'BANK', account: '0000435195001' }, 'LV80BANK0000435195001', null],
  [{ country: 'IE', bank_code: 'AIBK', branch_code: '93-11-52', account: '12345678' }, 'IE29AIBK93115212345678', null],
  [{ country: 'GB', bank_code: 'NWBK', branch_code: '60-16-13', account: '31926819' }, 'GB29NWBK60161331926819', null],
];

describe('ibanFromAccount', () => {
  for (const [parts, iban, national] of CASES) {
    it(`${parts.country}: ${JSON.stringify(parts)} gives ${iban}`, () => {
      const r = ibanFromAccount(parts);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.iban, iban);
      assert.equal(r.constructed_from.national_check_digits, national);
      assert.equal(validateIban(r.iban).valid, true);
    });
  }

  it('covers at least the countries the API promises', () => {
    for (const cc of 'DE AT CH LI FR MC ES IT SM BE NL LU PT FI NO PL CZ SK SI HR EE LT LV IE GB'.split(' ')) {
      assert.ok(FROM_ACCOUNT_COUNTRIES.includes(cc), cc);
    }
  });

  it('names the part that is missing or does not fit', () => {
    const field = (parts: AccountParts) => {
      const r = ibanFromAccount(parts);
      return r.ok ? null : [r.error, r.field];
    };
    assert.deepEqual(field({ country: 'DE', account: '532013000' }), ['invalid_request', 'bank_code']);
    assert.deepEqual(field({ country: 'DE', bank_code: '37040044' }), ['invalid_request', 'account']);
    assert.deepEqual(field({ country: 'DE', bank_code: '3704004', account: '1' }), ['invalid_request', 'bank_code']);
    assert.deepEqual(field({ country: 'DE', bank_code: '37040044', account: '12345678901' }), [
      'invalid_request',
      'account',
    ]);
    assert.deepEqual(field({ country: 'DE', bank_code: '37040044', account: '12A' }), ['invalid_request', 'account']);
    assert.deepEqual(field({ country: 'DE', bank_code: '37040044', branch_code: '1', account: '1' }), [
      'invalid_request',
      'branch_code',
    ]);
    assert.deepEqual(field({ country: 'FR', bank_code: '20041', account: '0500013M026' }), [
      'invalid_request',
      'branch_code',
    ]);
    assert.deepEqual(field({ country: 'BE', bank_code: '540', account: '539007547034' }), [
      'invalid_request',
      'bank_code',
    ]);
    assert.deepEqual(field({ country: 'Germany', bank_code: '1', account: '1' }), ['invalid_request', 'country']);
    assert.deepEqual(field({ country: 'US', bank_code: '1', account: '1' }), ['unsupported_country', 'country']);
  });

  it('computes a French RIB key of 97, never 00', () => {
    let found = 0;
    for (let n = 0; n < 3000 && found === 0; n++) {
      const account = String(n).padStart(11, '0');
      const r = ibanFromAccount({ country: 'FR', bank_code: '30002', branch_code: '00550', account });
      assert.ok(r.ok);
      assert.notEqual(r.constructed_from.national_check_digits, '00');
      if (r.constructed_from.national_check_digits === '97') found++;
      assert.equal(validateIban(r.iban).valid, true, r.iban);
    }
    assert.equal(found, 1, 'some account in the range has key 97');
  });

  it('leaves check digits inside the domestic number as written, for validation to judge', () => {
    const r = ibanFromAccount({ country: 'BE', account: '539-0075470-35' });
    assert.ok(r.ok);
    assert.deepEqual(
      validateIban(r.iban).errors.map((e) => e.code),
      ['be_check_failed'],
    );
  });
});
