// PLACEHOLDER written by the lead so the HTTP layer can be tested: helper-1 replaces this file entirely.
export interface IbanError { code: string; message: string }
export interface IbanResult {
  iban: string; formatted: string; valid: boolean; country: { code: string; name: string } | null;
  check_digits: string | null; bban: { bank_code: string | null; branch_code: string | null; account_number: string | null } | null;
  qr_iban: boolean; errors: IbanError[]; suggestions: string[];
}
export function validateIban(input: string): IbanResult {
  const iban = input.replace(/[\s.\-/]/g, '').toUpperCase();
  let r = 0;
  const s = iban.slice(4) + iban.slice(0, 4);
  for (const ch of s) r = (r * (ch >= 'A' ? 100 : 10) + parseInt(ch, 36)) % 97;
  const valid = r === 1;
  return { iban, formatted: iban, valid, country: null, check_digits: iban.slice(2, 4), bban: null, qr_iban: false, errors: valid ? [] : [{ code: 'checksum_failed', message: 'x' }], suggestions: [] };
}
