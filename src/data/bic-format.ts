import { isCountryCode } from './countries.ts';

export type BicFormatReason = 'characters' | 'length' | 'country_code';

export type BicFormat =
  | { ok: true; bic8: string; bic11: string; test_bic: boolean; primary_office: boolean }
  | { ok: false; reason: BicFormatReason; message: string };

// What a BIC may hold: ASCII letters and digits, and spaces, which are ignored.
const NOT_BIC = /[^A-Za-z0-9\s]/u;

/**
 * ISO 9362 format check (docs/api.md, GET /v1/bic/:code). Any character outside ASCII letters,
 * digits and spaces is refused first, wherever it sits and whatever the length, as `characters`:
 * punctuation, and look-alikes, which are never folded (upper-casing would turn the ligature "ﬁ"
 * into "FI"). Then spaces are ignored and letters upper-cased; the length must be 8 or 11. The
 * 4-character party prefix ("bank code") may hold digits: ISO 9362:2014 made it alphanumeric, and
 * rejecting digits would refuse codes that SWIFT may issue. The country must be an ISO 3166 code
 * (or XK, which SWIFT uses for Kosovo).
 */
export function checkBicFormat(input: string): BicFormat {
  const fail = (reason: BicFormatReason, message: string): BicFormat => ({ ok: false, reason, message });
  const refused = NOT_BIC.exec(input);
  if (refused) {
    // Counted in characters as a person reads them, not UTF-16 units.
    const place = [...input.slice(0, refused.index)].length + 1;
    return fail(
      'characters',
      `a BIC holds only ASCII letters and digits: "${refused[0]}" (character ${place}) is neither`,
    );
  }
  const code = input.replace(/\s+/g, '').toUpperCase();
  if (code.length !== 8 && code.length !== 11) {
    return fail('length', `a BIC has 8 or 11 characters, this one has ${code.length}`);
  }
  const country = code.slice(4, 6);
  if (!/^[A-Z]{2}$/.test(country) || !isCountryCode(country)) {
    return fail('country_code', `characters 5-6 must be an ISO 3166 country code, "${country}" is not one`);
  }
  const bic8 = code.slice(0, 8);
  const branch = code.length === 11 ? code.slice(8) : 'XXX';
  return { ok: true, bic8, bic11: bic8 + branch, test_bic: code[7] === '0', primary_office: branch === 'XXX' };
}
