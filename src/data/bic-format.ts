import { isCountryCode } from './countries.ts';

export type BicFormatReason = 'characters' | 'length' | 'bank_code' | 'country_code' | 'location_code' | 'branch_code';

export type BicFormat =
  | { ok: true; bic8: string; bic11: string; test_bic: boolean; primary_office: boolean }
  | { ok: false; reason: BicFormatReason; message: string };

const ALNUM = /^[A-Z0-9]+$/;
// Outside ASCII and not a space; ASCII punctuation is refused below with the position it sits in.
const NOT_ASCII = /[^\p{ASCII}\s]/u;

/**
 * ISO 9362 format check. Spaces are ignored and letters are upper-cased; any other character
 * outside ASCII letters and digits is refused, never folded. The 4-character
 * party prefix ("bank code") may hold digits: ISO 9362:2014 made it alphanumeric, and
 * rejecting digits would refuse codes that SWIFT may issue. The country must be an ISO 3166
 * code (or XK, which SWIFT uses for Kosovo).
 */
export function checkBicFormat(input: string): BicFormat {
  const fail = (reason: BicFormatReason, message: string): BicFormat => ({ ok: false, reason, message });
  // Checked before upper-casing, which would fold look-alikes into ASCII (the ligature "ﬁ" to "FI").
  if (NOT_ASCII.test(input)) return fail('characters', 'a BIC holds only ASCII letters and digits');
  const code = input.replace(/\s+/g, '').toUpperCase();
  if (code.length !== 8 && code.length !== 11) {
    return fail('length', `a BIC has 8 or 11 characters, this one has ${code.length}`);
  }
  if (!ALNUM.test(code.slice(0, 4)))
    return fail('bank_code', 'characters 1-4 (party prefix) must be letters or digits');
  const country = code.slice(4, 6);
  if (!/^[A-Z]{2}$/.test(country) || !isCountryCode(country)) {
    return fail('country_code', `characters 5-6 must be an ISO 3166 country code, "${country}" is not one`);
  }
  if (!ALNUM.test(code.slice(6, 8)))
    return fail('location_code', 'characters 7-8 (location) must be letters or digits');
  if (code.length === 11 && !ALNUM.test(code.slice(8))) {
    return fail('branch_code', 'characters 9-11 (branch) must be letters or digits');
  }
  const bic8 = code.slice(0, 8);
  const branch = code.length === 11 ? code.slice(8) : 'XXX';
  return { ok: true, bic8, bic11: bic8 + branch, test_bic: code[7] === '0', primary_office: branch === 'XXX' };
}
