/**
 * The reference engine (src/reference/) on the examples the standards and the banks publish, on
 * what a user types (print forms, lower case, spaces), and on its errors and suggestions.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createReference, validateReference } from '../../src/reference/index.ts';

const codes = (r: { errors: { code: string }[] }) => r.errors.map((e) => e.code);

describe('published examples', () => {
  test('ISO 11649: RF18 5390 0754 7034, in both forms, is an RF reference', () => {
    for (const input of ['RF18539007547034', 'RF18 5390 0754 7034', 'rf18 5390 0754 7034']) {
      const r = validateReference(input);
      assert.deepEqual(
        [r.reference, r.type, r.valid, r.formatted, r.errors, r.suggestions],
        ['RF18539007547034', 'rf', true, 'RF18 5390 0754 7034', [], []],
        input,
      );
    }
  });

  test('SIX QR-bill: 21 00000 00003 13947 14300 09017 is a QR reference, told by its 27 digits', () => {
    for (const input of ['210000000003139471430009017', '21 00000 00003 13947 14300 09017']) {
      const r = validateReference(input);
      assert.deepEqual(
        [r.reference, r.type, r.valid, r.formatted],
        ['210000000003139471430009017', 'qrr', true, '21 00000 00003 13947 14300 09017'],
      );
    }
  });

  test('Belgian +++090/9337/55493+++ (and its *** form) is a structured communication', () => {
    for (const input of ['+++090/9337/55493+++', '***090/9337/55493***', '+++ 090 / 9337 / 55493 +++']) {
      const r = validateReference(input);
      assert.deepEqual(
        [r.reference, r.type, r.valid, r.formatted],
        ['090933755493', 'be_ogm', true, '+++090/9337/55493+++'],
        input,
      );
    }
    // Digits alone need the country (or the type) to be read as Belgian.
    assert.equal(validateReference('090933755493', { country: 'BE' }).valid, true);
    assert.equal(validateReference('090/9337/55493', { type: 'be_ogm' }).valid, true);
  });

  test('Finnish 12 34561 (Finance Finland, printed in groups of five from the right)', () => {
    const r = validateReference('12 34561', { country: 'FI' });
    assert.deepEqual([r.reference, r.type, r.valid, r.formatted], ['1234561', 'fi', true, '12 34561']);
    assert.equal(validateReference('1232', { type: 'fi' }).valid, true);
    assert.deepEqual(codes(validateReference('1234562', { country: 'fi' })), ['reference_check_failed']);
  });

  test('Norwegian KID 602243 (mod 10), and a mod 11 KID ending in "-" for 10', () => {
    assert.equal(validateReference('602243', { country: 'NO' }).valid, true);
    // 987654321: weights 2..7 from the right give 186, 186 mod 11 = 10, 11 - 10 = 1 (its Luhn digit is 7).
    assert.equal(validateReference('9876543211', { type: 'no_kid' }).valid, true);
    assert.deepEqual(codes(validateReference('9876543211', { type: 'se_ocr' })), ['reference_check_failed']);
    // 6: 6 x 2 = 12, 12 mod 11 = 1, 11 - 1 = 10, written "-".
    assert.equal(validateReference('6-', { type: 'no_kid' }).valid, true);
    assert.deepEqual(codes(validateReference('6-', { type: 'se_ocr' })), ['reference_characters']);
    assert.deepEqual(codes(validateReference('602244', { type: 'no_kid' })), ['reference_check_failed']);
  });

  test('Swedish OCR 1700012 (invoice 170001 with its Luhn digit)', () => {
    const r = validateReference('1700012', { country: 'SE' });
    assert.deepEqual([r.type, r.valid, r.formatted], ['se_ocr', true, '1700012']);
    assert.deepEqual(codes(validateReference('1700013', { country: 'SE' })), ['reference_check_failed']);
  });
});

describe('type detection', () => {
  test('RF first, then the Belgian frame, then 27 digits, then the country', () => {
    assert.equal(validateReference('RF18539007547034', { country: 'FI' }).type, 'rf');
    assert.equal(validateReference('+++090/9337/55493+++', { country: 'CH' }).type, 'be_ogm');
    assert.equal(validateReference('210000000003139471430009017', { country: 'FI' }).type, 'qrr');
    assert.equal(validateReference('1234561', { country: 'LI' }).type, 'qrr');
    assert.equal(validateReference('1234561', { type: 'se_ocr', country: 'FI' }).type, 'se_ocr');
  });

  test('digits alone, without type or country: type null and the candidates whose length and check hold', () => {
    const r = validateReference('1234561');
    assert.equal(r.type, null);
    assert.equal(r.valid, false);
    assert.deepEqual(codes(r), ['reference_type_unknown']);
    assert.deepEqual(r.errors[0]?.candidates, ['fi']);
    // A Luhn digit makes a Norwegian and a Swedish reference alike; a country outside the six picks neither.
    const both = validateReference('602243', { country: 'DE' });
    assert.deepEqual(both.errors[0]?.candidates, ['no_kid', 'se_ocr']);
    assert.deepEqual(validateReference('090933755493').errors[0]?.candidates, ['be_ogm']);
    assert.deepEqual(validateReference('ABC123').errors[0]?.candidates, []);
  });
});

describe('errors, in order: empty, characters, length, check', () => {
  test('empty and blank references', () => {
    for (const input of ['', '   ', '\u00a0']) {
      const r = validateReference(input);
      assert.deepEqual([r.reference, r.valid, codes(r)], ['', false, ['reference_empty']]);
    }
    assert.deepEqual(codes(validateReference('', { type: 'rf' })), ['reference_empty']);
  });

  test('characters its type does not allow', () => {
    assert.deepEqual(codes(validateReference('RF18-5390', { type: 'rf' })), ['reference_characters']);
    assert.deepEqual(codes(validateReference('RFAB539007547034')), ['reference_characters']);
    assert.deepEqual(codes(validateReference('12A4561', { type: 'fi' })), ['reference_characters']);
    assert.deepEqual(codes(validateReference('539007547034', { type: 'rf' })), ['reference_characters']);
    assert.match(validateReference('539007547034', { type: 'rf' }).errors[0]?.message ?? '', /starts with RF/);
  });

  test('letters that only Unicode upper-casing makes ASCII are refused, never folded', () => {
    const rf = createReference({ type: 'rf', from: 'FINANCE' });
    assert.ok(rf.ok && rf.result.valid);
    const reference = rf.ok ? rf.result.reference : '';
    assert.deepEqual(codes(validateReference(reference.replace('FI', '\ufb01'))), ['reference_characters']);
    assert.deepEqual(codes(validateReference(reference.replace('I', '\u0131'))), ['reference_characters']);
    assert.deepEqual(codes(validateReference(reference.toLowerCase())), []);
    const folded = createReference({ type: 'rf', from: '\ufb01nance' });
    assert.equal(folded.ok ? 'made' : folded.code, 'reference_characters');
  });

  test('lengths: each type its own', () => {
    const len = (ref: string, type: Parameters<typeof validateReference>[1]) => codes(validateReference(ref, type));
    assert.deepEqual(len('RF18', { type: 'rf' }), ['reference_length']);
    assert.deepEqual(len(`RF18${'1'.repeat(22)}`, { type: 'rf' }), ['reference_length']);
    assert.deepEqual(len('2100000000031394714300090', { type: 'qrr' }), ['reference_length']);
    assert.deepEqual(len('09093375549', { type: 'be_ogm' }), ['reference_length']);
    assert.deepEqual(len('123', { type: 'fi' }), ['reference_length']);
    assert.deepEqual(len('1'.repeat(21), { type: 'fi' }), ['reference_length']);
    assert.deepEqual(len('1', { type: 'no_kid' }), ['reference_length']);
    assert.deepEqual(len('1'.repeat(26), { type: 'se_ocr' }), ['reference_length']);
    const message = validateReference('2100000000031394714300090', { type: 'qrr' }).errors[0]?.message;
    assert.match(message ?? '', /27 characters; this one has 25/);
  });

  test('a failing check keeps the print form', () => {
    const r = validateReference('210000000003139471430009018');
    assert.deepEqual(
      [r.type, r.valid, r.formatted, codes(r)],
      ['qrr', false, '21 00000 00003 13947 14300 09018', ['reference_check_failed']],
    );
    assert.deepEqual(r.suggestions, [], 'a single check digit gives no suggestions');
  });
});

describe('suggestions (rf and be_ogm)', () => {
  test('a mistyped RF check digit: the fix comes first, every suggestion holds, at most 5, leftmost change first', () => {
    const r = validateReference('RF19539007547034');
    assert.equal(r.suggestions[0], 'RF18539007547034');
    assert.ok(r.suggestions.length >= 1 && r.suggestions.length <= 5);
    const changedAt = (s: string) => [...s].findIndex((c, i) => c !== 'RF19539007547034'[i]);
    const positions = r.suggestions.map(changedAt);
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
    );
    for (const s of r.suggestions) assert.equal(validateReference(s).valid, true, s);
  });

  test('every RF or Belgian suggestion is a reference the validator accepts, for any typo', () => {
    // Check digits 00 and 01 pass the remainder test but are not ISO 11649's (02 to 98): edits
    // of the body of such a reference can never make it valid, so none is suggested.
    const zero = validateReference('RF001234');
    assert.deepEqual([zero.valid, zero.errors[0]?.code, zero.suggestions], [false, 'reference_check_failed', []]);
    assert.match(zero.errors[0]?.message ?? '', /02 to 98/);
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const body = Array.from({ length: 1 + next(21) }, () => alphabet.charAt(next(36))).join('');
      const rf = `RF${String(next(100)).padStart(2, '0')}${body}`;
      const ogm = Array.from({ length: 12 }, () => String(next(10))).join('');
      for (const [reference, type] of [
        [rf, 'rf'],
        [ogm, 'be_ogm'],
      ] as const) {
        for (const s of validateReference(reference, { type }).suggestions)
          assert.equal(validateReference(s, { type }).valid, true, `${reference} → ${s}`);
      }
    }
  });

  test('two swapped neighbours in an RF reference are found', () => {
    const r = validateReference('RF18359007547034');
    assert.equal(r.suggestions[0], 'RF18539007547034');
  });

  test('a Belgian typo: the swap and the check-digit fix are among the suggestions, all valid', () => {
    const swapped = validateReference('+++090/9337/54593+++');
    assert.ok(swapped.suggestions.includes('090933755493'), JSON.stringify(swapped.suggestions));
    const wrongCheck = validateReference('+++090/9337/55494+++');
    assert.ok(wrongCheck.suggestions.includes('090933755493'));
    for (const s of [...swapped.suggestions, ...wrongCheck.suggestions]) {
      assert.equal(validateReference(s, { type: 'be_ogm' }).valid, true, s);
    }
    assert.ok(swapped.suggestions.length <= 5);
  });

  test('other types answer no suggestions', () => {
    assert.deepEqual(validateReference('1234562', { type: 'fi' }).suggestions, []);
    assert.deepEqual(validateReference('602244', { type: 'no_kid' }).suggestions, []);
  });
});

describe('create', () => {
  const made = (input: Parameters<typeof createReference>[0]) => {
    const out = createReference(input);
    if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
    return out.result;
  };

  test('each type from its published example’s base', () => {
    assert.equal(made({ type: 'rf', from: '539007547034' }).reference, 'RF18539007547034');
    assert.equal(made({ type: 'rf', from: '5390 0754 7034' }).formatted, 'RF18 5390 0754 7034');
    assert.equal(made({ type: 'qrr', from: '21000000000313947143000901' }).reference, '210000000003139471430009017');
    assert.equal(made({ type: 'be_ogm', from: '0909337554' }).formatted, '+++090/9337/55493+++');
    assert.equal(made({ type: 'fi', from: '123456' }).reference, '1234561');
    assert.equal(made({ type: 'no_kid', from: '60224' }).reference, '602243');
    assert.equal(made({ type: 'no_kid', from: '987654321', algorithm: 'mod11' }).reference, '9876543211');
    assert.equal(made({ type: 'no_kid', from: '987654321' }).reference, '9876543217');
    assert.equal(made({ type: 'se_ocr', from: '170001' }).reference, '1700012');
  });

  test('QR and Belgian references are zero-padded on the left', () => {
    const qrr = made({ type: 'qrr', from: '1234' });
    assert.equal(qrr.reference.length, 27);
    assert.ok(qrr.reference.startsWith('00000000000000000000001234'));
    assert.equal(qrr.valid, true);
    assert.equal(made({ type: 'be_ogm', from: '1' }).reference, '000000000101');
    // 0 mod 97 is written 97.
    assert.equal(made({ type: 'be_ogm', from: '97' }).reference, '000000009797');
  });

  test('refusals: empty, characters, lengths, mod 11 giving 10, algorithm for another type', () => {
    const refused = (input: Parameters<typeof createReference>[0]) => {
      const out = createReference(input);
      assert.equal(out.ok, false, JSON.stringify(input));
      return out.ok ? '' : `${out.code}/${out.field}`;
    };
    assert.equal(refused({ type: 'rf', from: ' ' }), 'reference_empty/from');
    assert.equal(refused({ type: 'rf', from: 'ABC-1' }), 'reference_characters/from');
    assert.equal(refused({ type: 'rf', from: 'A'.repeat(22) }), 'reference_length/from');
    assert.equal(refused({ type: 'qrr', from: '1'.repeat(27) }), 'reference_length/from');
    assert.equal(refused({ type: 'fi', from: '12' }), 'reference_length/from');
    assert.equal(refused({ type: 'se_ocr', from: '1'.repeat(25) }), 'reference_length/from');
    assert.equal(refused({ type: 'no_kid', from: '6', algorithm: 'mod11' }), 'reference_not_creatable/from');
    assert.equal(refused({ type: 'fi', from: '123', algorithm: 'mod11' }), 'invalid_request/algorithm');
  });
});

describe('suggestions match every edit tried one by one', () => {
  /** Every substitution and neighbour swap, left to right, kept when validate says it holds. */
  function bruteForce(reference: string, type: 'rf' | 'be_ogm'): string[] {
    const found: string[] = [];
    const add = (s: string) => {
      if (found.length < 5 && !found.includes(s) && validateReference(s, { type }).valid) found.push(s);
    };
    for (let i = type === 'rf' ? 2 : 0; i < reference.length; i++) {
      const alphabet = type === 'rf' && i >= 4 ? '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '0123456789';
      for (const c of alphabet) if (c !== reference[i]) add(reference.slice(0, i) + c + reference.slice(i + 1));
      const next = reference[i + 1];
      if (next !== undefined && next !== reference[i])
        add(reference.slice(0, i) + next + reference[i] + reference.slice(i + 2));
    }
    return found;
  }

  test('300 RF and Belgian references with one typo', () => {
    let seed = 11649;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = (chars: string) => chars[Math.floor(next() * chars.length)] ?? '0';
    for (let n = 0; n < 300; n++) {
      const type = n % 2 === 0 ? 'rf' : 'be_ogm';
      const length = type === 'rf' ? 1 + Math.floor(next() * 21) : 10;
      const alphabet = type === 'rf' ? '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '0123456789';
      const made = createReference({ type, from: Array.from({ length }, () => pick(alphabet)).join('') });
      if (!made.ok) throw new Error(made.message);
      const valid = made.result.reference;
      const at = (type === 'rf' ? 2 : 0) + Math.floor(next() * (valid.length - (type === 'rf' ? 2 : 0)));
      const typo = valid.slice(0, at) + (valid[at] === '7' ? '3' : '7') + valid.slice(at + 1);
      const r = validateReference(typo, { type });
      if (r.valid) continue;
      assert.deepEqual(r.suggestions, bruteForce(typo, type), typo);
      assert.ok(r.suggestions.includes(valid) || r.suggestions.length === 5, `${typo}: ${valid} missing`);
    }
  });
});
