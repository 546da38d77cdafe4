import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COUNTRIES,
  ERROR_CODES,
  germanMethodLookup,
  MAX_SUGGESTIONS,
  normalizeIban,
  validateIban,
} from '../../src/iban/index.ts';
import { transpose, withCheckDigits } from './helpers.ts';
import { REGISTRY_EXAMPLES } from './registry-examples.ts';

const codes = (input: string): string[] => validateIban(input).errors.map((e) => e.code);

describe('registry examples', () => {
  it('the example IBAN of every one of the 89 registry countries is valid', () => {
    assert.equal(REGISTRY_EXAMPLES.length, 89);
    assert.equal(Object.keys(COUNTRIES).length, 89);
    for (const example of REGISTRY_EXAMPLES) {
      const r = validateIban(example);
      assert.deepEqual(r.errors, [], example);
      assert.equal(r.valid, true);
      assert.equal(r.country?.code, example.slice(0, 2));
      assert.equal(r.country?.name, COUNTRIES[example.slice(0, 2) as keyof typeof COUNTRIES].name);
      assert.deepEqual(r.suggestions, []);
    }
  });

  it('a valid IBAN is returned with its parts: check digits, bank, branch, account and print form', () => {
    const r = validateIban('GB29NWBK60161331926819');
    assert.equal(r.formatted, 'GB29 NWBK 6016 1331 9268 19');
    assert.equal(r.check_digits, '29');
    assert.deepEqual(r.bban, { bank_code: 'NWBK', branch_code: '601613', account_number: '31926819' });
    assert.deepEqual(r.country, { code: 'GB', name: 'United Kingdom' });
    const it = validateIban('IT60X0542811101000000123456');
    assert.deepEqual(it.bban, { bank_code: '05428', branch_code: '11101', account_number: '000000123456' });
    assert.equal(validateIban('DE89370400440532013000').bban?.branch_code, null);
  });
});

describe('normalisation', () => {
  it('spaces, tabs, no-break spaces, dashes, dots, slashes and lower case are accepted', () => {
    for (const input of [
      'DE89 3704 0044 0532 0130 00',
      'de89370400440532013000',
      'DE89\t3704\u00a00044\u202f0532-0130.00',
      'DE89/3704/0044/0532/0130/00',
      'DE89\u20133704\u20140044\u22120532\u20100130\u201500',
      '  DE89370400440532013000\n',
      'IBAN DE89 3704 0044 0532 0130 00',
      'iban: DE89370400440532013000',
      'IBAN:DE89370400440532013000',
      'IbAnDE89370400440532013000',
    ]) {
      const r = validateIban(input);
      assert.equal(r.iban, 'DE89370400440532013000', JSON.stringify(input));
      assert.equal(r.valid, true, JSON.stringify(input));
    }
  });

  it('normalizeIban leaves an electronic-form IBAN as it is and rewrites the rest', () => {
    assert.equal(normalizeIban('GB29NWBK60161331926819'), 'GB29NWBK60161331926819');
    assert.equal(normalizeIban('gb29 nwbk-6016.1331/9268 19'), 'GB29NWBK60161331926819');
    assert.equal(normalizeIban('IBANGB29NWBK60161331926819'), 'GB29NWBK60161331926819');
  });

  it('any other character makes the IBAN invalid with invalid_characters, shown in the checked form', () => {
    for (const input of [
      'DE89_370400440532013000',
      'DE89370400440532013000!',
      'DE89 3704 0044 0532 0130 0Ö',
      'DE89:370400440532013000',
      'DE89３70400440532013000',
      'DE89370400440532013000\u200b',
    ]) {
      assert.deepEqual(codes(input), ['invalid_characters'], JSON.stringify(input));
    }
    // Unicode upper-casing would make ß into SS: it must stay an invalid character instead.
    assert.deepEqual(codes('de89 3704 0044 0532 0130 ß'), ['invalid_characters']);
    const r = validateIban('de89 3704 0044 0532 0130 0€');
    assert.equal(r.iban, 'DE8937040044053201300€');
    assert.deepEqual(r.country, { code: 'DE', name: 'Germany' });
    assert.deepEqual(r.suggestions, []);
  });

  it('empty or separator-only input is reported as empty', () => {
    for (const input of ['', '   ', ' - / . ', 'IBAN:', '\u00a0'])
      assert.deepEqual(codes(input), ['empty'], JSON.stringify(input));
  });
});

describe('country, length, check digits and structure', () => {
  it('an unknown or malformed country code is unknown_country', () => {
    assert.deepEqual(codes('XX89370400440532013000'), ['unknown_country']);
    assert.deepEqual(codes('US12345678901234567890'), ['unknown_country']);
    assert.deepEqual(codes('1289370400440532013000'), ['unknown_country']);
    assert.equal(validateIban('XX89370400440532013000').country, null);
  });

  it('one character too many or too few is invalid_length, without suggestions', () => {
    for (const input of ['DE8937040044053201300', 'DE893704004405320130000', 'DE', 'NO938601111794']) {
      const r = validateIban(input);
      assert.deepEqual(
        r.errors.map((e) => e.code),
        ['invalid_length'],
        input,
      );
      assert.equal(r.bban, null);
      assert.deepEqual(r.suggestions, []);
    }
  });

  it('a length error says the length the country takes and the length given', () => {
    const [short] = validateIban('DE89 3704 0044 0532 0130 0').errors;
    assert.deepEqual([short?.code, short?.expected_length, short?.length], ['invalid_length', 22, 21]);
    const [long] = validateIban('NO93 8601 1117 9470').errors;
    assert.deepEqual([long?.expected_length, long?.length], [15, 16]);
  });

  it('check digits 00, 01 and 99 are refused even where mod 97 alone would accept them', () => {
    // 00, 01 and 99 are congruent (mod 97) to 97, 98 and 02: find accounts whose true check digits are those.
    for (const [twin, refused] of [
      ['97', '00'],
      ['98', '01'],
      ['02', '99'],
    ] as const) {
      let iban = '';
      for (let n = 0; !iban.startsWith(`GB${twin}`); n++)
        iban = withCheckDigits('GB', `NWBK601613${String(n).padStart(8, '0')}`);
      assert.equal(validateIban(iban).valid, true, iban);
      assert.deepEqual(codes(`GB${refused}${iban.slice(4)}`), ['invalid_check_digits'], refused);
    }
    assert.ok(codes('GBX9NWBK60161331926819').includes('invalid_check_digits'));
  });

  it('computeCheckDigits gives the check digits of the registry examples', () => {
    for (const example of REGISTRY_EXAMPLES)
      assert.equal(withCheckDigits(example.slice(0, 2), example.slice(4)), example);
  });

  it('a letter where the registry wants a digit, or a digit where it wants a letter, is invalid_structure', () => {
    assert.ok(codes('GB29NWBK6016133192681A').includes('invalid_structure'));
    assert.ok(codes('GB29NWB160161331926819').includes('invalid_structure'));
    // Class violations with correct mod 97 are still refused.
    assert.deepEqual(codes(withCheckDigits('DE', '37040044053201300A')), ['invalid_structure']);
    assert.deepEqual(codes(withCheckDigits('NL', '1BNA0417164300')), ['invalid_structure']);
    assert.deepEqual(codes(withCheckDigits('FR', '20041010050500013M0260A')), ['invalid_structure']);
  });

  it('a wrong check digit pair on a well-formed IBAN is checksum_failed', () => {
    assert.deepEqual(codes('DE88370400440532013000'), ['checksum_failed']);
    assert.deepEqual(codes('GB29NWBK60161331926818'), ['checksum_failed']);
  });
});

describe('QR-IBAN', () => {
  const qr = (country: string, iid: string): boolean =>
    validateIban(withCheckDigits(country, `${iid}000000123456`)).qr_iban;

  it('Swiss and Liechtenstein IBANs with an IID from 30000 to 31999 are QR-IBANs', () => {
    assert.equal(validateIban('CH44 3199 9123 0008 8901 2').qr_iban, true);
    assert.equal(validateIban('CH44 3199 9123 0008 8901 2').valid, true);
    for (const iid of ['30000', '30808', '31999']) {
      assert.equal(qr('CH', iid), true, iid);
      assert.equal(qr('LI', iid), true, iid);
    }
  });

  it('other IIDs and other countries are not', () => {
    assert.equal(validateIban('CH9300762011623852957').qr_iban, false);
    assert.equal(validateIban('LI21088100002324013AA').qr_iban, false);
    for (const iid of ['29999', '32000', '03000']) assert.equal(qr('CH', iid), false, iid);
    assert.equal(validateIban(withCheckDigits('AT', '3000012345678901')).qr_iban, false);
  });
});

describe('suggestions', () => {
  it('two swapped neighbouring characters give the right IBAN as first suggestion', () => {
    const right = 'GB29NWBK60161331926819';
    const r = validateIban(transpose(right, 18));
    assert.equal(r.valid, false);
    assert.equal(r.suggestions[0], right);
  });

  it('a digit typed one key off gives the right IBAN as first suggestion', () => {
    assert.equal(validateIban('GB29NWBK60161331926818').suggestions[0], 'GB29NWBK60161331926819');
    assert.equal(validateIban('DE89370400440532013001').suggestions[0], 'DE89370400440532013000');
  });

  it('a letter O typed for a zero is corrected first', () => {
    assert.equal(validateIban('DE89 3704 0044 O532 0130 00').suggestions[0], 'DE89370400440532013000');
  });

  it('suggestions are valid, at most 3, one edit away, deterministic, and absent on valid IBANs', () => {
    for (const example of REGISTRY_EXAMPLES) {
      const typo = transpose(example, 6);
      const r = validateIban(typo);
      if (r.valid) continue;
      assert.ok(r.suggestions.length <= MAX_SUGGESTIONS);
      for (const s of r.suggestions) {
        assert.equal(validateIban(s).valid, true, s);
        assert.equal(s.length, typo.length);
      }
      assert.deepEqual(validateIban(typo).suggestions, r.suggestions);
    }
  });

  it("a German typo's own IBAN is suggested even where nearer candidates fail the bank's account check", () => {
    // Commerzbank's BLZ checks accounts by method 13; the candidates it refuses must not take the places first
    const germanMethodOf = germanMethodLookup((blz) => (blz === '37040044' ? '13' : null));
    const r = validateIban('DE89 3704 0044 0532 6130 00', { germanMethodOf });
    assert.ok(r.suggestions.includes('DE89370400440532013000'), r.suggestions.join(', '));
    // three places filled where three candidates pass, the nearer refused ones skipped
    const full = validateIban('DE89 3704 0044 0532 0130 07', { germanMethodOf });
    assert.equal(full.suggestions.length, 3, full.suggestions.join(', '));
    for (const s of [...r.suggestions, ...full.suggestions])
      assert.notEqual(validateIban(s, { germanMethodOf }).national_check, 'failed', s);
  });

  it('a slip in the country code is suggested too: a letter replaced, or two neighbours swapped', () => {
    for (const [typo, right] of [
      ['DF89370400440532013000', 'DE89370400440532013000'],
      ['ED89370400440532013000', 'DE89370400440532013000'],
      ['D8E9370400440532013000', 'DE89370400440532013000'],
      ['LN91ABNA0417164300', 'NL91ABNA0417164300'],
    ]) {
      const r = validateIban(typo);
      assert.deepEqual(
        r.errors.map((e) => e.code),
        ['unknown_country'],
        typo,
      );
      assert.deepEqual(r.suggestions, [right], typo);
    }
    assert.deepEqual(validateIban('XX89370400440532013000').suggestions, [], 'no country one slip away');
  });

  it('a national check failure with a right mod 97 also gets suggestions that pass both', () => {
    const r = validateIban('BE68539007547043');
    assert.deepEqual(r.suggestions, ['BE68539007547034']);
  });
});

describe('robustness', () => {
  it('never throws, whatever the input', () => {
    let seed = 42;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const inputs: unknown[] = [
      '',
      'A'.repeat(10_000),
      'DE'.padEnd(10_000, '9'),
      '😀😀😀',
      'IBAN😀',
      '\ud800',
      'DE89\u0000',
      null,
      undefined,
      42,
      {},
    ];
    for (let i = 0; i < 2000; i++) {
      const len = Math.floor(random() * 40);
      let s = '';
      for (let j = 0; j < len; j++) s += String.fromCharCode(Math.floor(random() * (random() < 0.8 ? 128 : 0xffff)));
      inputs.push(s, `DE${s}`, s.toUpperCase());
    }
    for (const input of inputs) {
      const r = validateIban(input as string);
      assert.equal(typeof r.valid, 'boolean');
      assert.equal(r.valid, r.errors.length === 0);
    }
  });

  it('every error code a result can carry is documented with its message', () => {
    const r = [
      validateIban(''),
      validateIban('XX00'),
      validateIban('DE00'),
      validateIban('DE00AA0400440532013000'),
      validateIban('D€'),
    ];
    for (const e of r.flatMap((x) => x.errors))
      assert.equal(ERROR_CODES[e.code as keyof typeof ERROR_CODES], e.message);
  });
});
