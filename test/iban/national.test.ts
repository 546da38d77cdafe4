import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_CODES, NATIONAL_CHECKS, validateIban } from '../../src/iban/index.ts';
import { oneDigitOff, withCheckDigits } from './helpers.ts';

/**
 * Per national check: a valid IBAN (registry example, or another published one) and the
 * index of a digit the check covers. Moving that digit and recomputing the IBAN check
 * digits keeps mod 97 passing, so only the national check can catch it.
 */
const CASES: { country: string; valid: string; index: number; code: string }[] = [
  { country: 'AL', valid: 'AL47212110090000000235698741', index: 4, code: 'al_check_failed' },
  { country: 'BA', valid: 'BA391290079401028494', index: 6, code: 'ba_check_failed' },
  { country: 'BE', valid: 'BE68539007547034', index: 5, code: 'be_check_failed' },
  { country: 'BE', valid: 'BE71096123456769', index: 9, code: 'be_check_failed' },
  { country: 'CZ', valid: 'CZ6508000000192000145399', index: 20, code: 'cz_check_failed' },
  { country: 'CZ', valid: 'CZ6508000000192000145399', index: 9, code: 'cz_check_failed' },
  { country: 'EE', valid: 'EE382200221020145685', index: 10, code: 'ee_check_failed' },
  { country: 'ES', valid: 'ES9121000418450200051332', index: 5, code: 'es_dc_failed' },
  { country: 'ES', valid: 'ES9121000418450200051332', index: 20, code: 'es_dc_failed' },
  { country: 'FI', valid: 'FI2112345600000785', index: 8, code: 'fi_check_failed' },
  { country: 'FR', valid: 'FR1420041010050500013M02606', index: 6, code: 'fr_rib_key_failed' },
  { country: 'FR', valid: 'FR7630006000011234567890189', index: 20, code: 'fr_rib_key_failed' },
  { country: 'HU', valid: 'HU42117730161111101800000000', index: 5, code: 'hu_check_failed' },
  { country: 'HU', valid: 'HU42117730161111101800000000', index: 15, code: 'hu_check_failed' },
  { country: 'IS', valid: 'IS140159260076545510730339', index: 17, code: 'is_kennitala_failed' },
  { country: 'IT', valid: 'IT60X0542811101000000123456', index: 10, code: 'it_cin_failed' },
  { country: 'MC', valid: 'MC5811222000010123456789030', index: 10, code: 'mc_rib_key_failed' },
  { country: 'ME', valid: 'ME25505000012345678951', index: 8, code: 'me_check_failed' },
  { country: 'MK', valid: 'MK07250120000058984', index: 8, code: 'mk_check_failed' },
  { country: 'MR', valid: 'MR1300020001010000123456753', index: 8, code: 'mr_rib_key_failed' },
  { country: 'NO', valid: 'NO9386011117947', index: 5, code: 'no_check_failed' },
  { country: 'PT', valid: 'PT50000201231234567890154', index: 8, code: 'pt_nib_check_failed' },
  { country: 'RS', valid: 'RS35260005601001611379', index: 8, code: 'rs_check_failed' },
  { country: 'SI', valid: 'SI56263300012039086', index: 8, code: 'si_check_failed' },
  { country: 'SK', valid: 'SK3112000000198742637541', index: 20, code: 'sk_check_failed' },
  { country: 'SM', valid: 'SM86U0322509800000000270100', index: 10, code: 'sm_cin_failed' },
  { country: 'TN', valid: 'TN5910006035183598478831', index: 8, code: 'tn_rib_key_failed' },
];

describe('national check digits', () => {
  for (const { country, valid, index, code } of CASES) {
    it(`${country}: ${valid} is valid, and one digit off (IBAN check digits recomputed) fails with ${code}`, () => {
      const good = validateIban(valid);
      assert.equal(good.valid, true, JSON.stringify(good.errors));
      const altered = oneDigitOff(valid, index);
      const bad = validateIban(altered);
      assert.equal(bad.valid, false, altered);
      assert.deepEqual(
        bad.errors.map((e) => e.code),
        [code],
        altered,
      );
      assert.equal(bad.errors[0]!.message, ERROR_CODES[code as keyof typeof ERROR_CODES]);
    });
  }

  it('every country with a national check has a case here, and every check code is documented', () => {
    const tested = new Set(CASES.map((c) => c.country));
    for (const [country, { code }] of Object.entries(NATIONAL_CHECKS)) {
      assert.ok(tested.has(country), `no test for ${country}`);
      assert.ok(code in ERROR_CODES, code);
    }
    for (const required of [
      'BE',
      'FR',
      'MC',
      'ES',
      'IT',
      'SM',
      'PT',
      'NO',
      'FI',
      'EE',
      'SI',
      'ME',
      'MK',
      'BA',
      'RS',
      'CZ',
      'SK',
      'HU',
      'IS',
      'AL',
      'TN',
      'MR',
    ]) {
      assert.ok(required in NATIONAL_CHECKS, `${required} has no national check`);
    }
  });

  it('a Norwegian account with 00 as 5th and 6th digit is not judged by the mod 11 rule', () => {
    for (let last = 0; last <= 9; last++) {
      const r = validateIban(withCheckDigits('NO', `8601001117${last}`));
      assert.deepEqual(r.errors, [], r.iban);
    }
  });
});
