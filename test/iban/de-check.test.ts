/** Each implemented German check-digit method against the Bundesbank's own test account numbers. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DE_METHODS } from '../../src/iban/de-check/methods.ts';
import { BUNDESBANK } from './bundesbank-accounts.ts';

const pad = (account: string): string => account.padStart(10, '0');

for (const [method, { valid, invalid = [] }] of Object.entries(BUNDESBANK)) {
  test(`method ${method}: the Bundesbank's test accounts`, () => {
    const check = DE_METHODS[method]!;
    for (const account of valid) assert.equal(check(pad(account)), true, `${account} is valid under ${method}`);
    for (const account of invalid) assert.equal(check(pad(account)), false, `${account} is invalid under ${method}`);
  });
}
