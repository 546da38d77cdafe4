/**
 * Each implemented German check-digit method against the test account numbers the Bundesbank
 * publishes with its description of the methods (valid and, where given, invalid ones).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DE_METHODS } from '../../src/iban/de-check/methods.ts';

const pad = (account: string): string => account.padStart(10, '0');

const BUNDESBANK: Record<string, { valid: string[]; invalid?: string[] }> = {
  '00': { valid: ['9290701', '539290858', '1501824', '1501832'] },
  '06': { valid: ['94012341', '5073321010'] },
  '10': { valid: ['12345008', '87654008'] },
  '19': { valid: ['0240334000', '0200520016'] },
  '24': { valid: ['138301', '1306118605', '3307118608', '9307118603'] },
  '28': { valid: ['19999000', '9130000201'] },
  '32': { valid: ['9141405', '1709107983', '0122116979', '0121114867', '9030101192', '9245500460'] },
  '33': { valid: ['48658', '84956'] },
  '34': { valid: ['9913000700', '9914001000'] },
  '38': { valid: ['191919', '1100660'] },
  '61': { valid: ['2063099200', '0260760481'] },
  '63': { valid: ['123456600', '0001234566'] },
  '68': { valid: ['8889654328', '987654324', '987654328'] },
  '76': { valid: ['0006543200', '9012345600', '7876543100', '0000123456'] },
  '88': { valid: ['2525259', '1000500', '90013000', '92525253', '99913003'] },
  '91': {
    valid: [
      '2974118000',
      '5281741000',
      '9952810000',
      '2974117000',
      '5281770000',
      '9952812000',
      '8840019000',
      '8840050000',
      '8840087000',
      '8840045000',
      '8840012000',
      '8840055000',
      '8840080000',
    ],
    invalid: ['8840017000', '8840023000', '8840041000', '8840010000', '8840057000'],
  },
  '95': { valid: ['0068007003', '0847321750', '6450060494', '6454000003'] },
  '99': { valid: ['0068007003', '0847321750'] },
  A2: { valid: ['3456789019', '5678901231', '6789012348', '3456789012'], invalid: ['1234567890', '0123456789'] },
  D8: {
    valid: ['1403414848', '6800000439', '6899999954', '0012345678'],
    invalid: ['3012084101', '1062813622', '0000260986'],
  },
};

for (const [method, { valid, invalid = [] }] of Object.entries(BUNDESBANK)) {
  test(`method ${method}: the Bundesbank's test accounts`, () => {
    const check = DE_METHODS[method]!;
    for (const account of valid) assert.equal(check(pad(account)), true, `${account} is valid under ${method}`);
    for (const account of invalid) assert.equal(check(pad(account)), false, `${account} is invalid under ${method}`);
  });
}
