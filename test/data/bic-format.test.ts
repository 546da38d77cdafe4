import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkBicFormat } from '../../src/data/bic-format.ts';

test('an 8-character BIC is accepted and expanded to its primary office', () => {
  assert.deepEqual(checkBicFormat('DEUTDEFF'), {
    ok: true,
    bic8: 'DEUTDEFF',
    bic11: 'DEUTDEFFXXX',
    test_bic: false,
    primary_office: true,
  });
});

test('an 11-character BIC with a branch keeps its branch code', () => {
  const r = checkBicFormat('UBSWCHZH80A');
  assert.equal(r.ok && r.bic11, 'UBSWCHZH80A');
  assert.equal(r.ok && r.primary_office, false);
});

test('spaces and lower case are tolerated', () => {
  const r = checkBicFormat(' deut de ff 500 ');
  assert.equal(r.ok && r.bic11, 'DEUTDEFF500');
});

test('a BIC whose location code ends in 0 is flagged as a test BIC', () => {
  const r = checkBicFormat('DEUTDEF0');
  assert.equal(r.ok && r.test_bic, true);
});

test('wrong lengths are refused with reason length', () => {
  for (const code of ['DEUTDE', 'DEUTDEFF5', 'DEUTDEFF5000', '']) {
    const r = checkBicFormat(code);
    assert.equal(r.ok ? 'ok' : r.reason, 'length', code);
  }
});

test('a party prefix with digits is accepted (ISO 9362:2014)', () => {
  assert.equal(checkBicFormat('1234DEFF').ok, true);
});

test('a country code that ISO 3166 does not know is refused', () => {
  for (const code of ['DEUTZZFF', 'DEUTD1FF', 'DEUTEUFF']) {
    const r = checkBicFormat(code);
    assert.equal(r.ok ? 'ok' : r.reason, 'country_code', code);
  }
  assert.equal(checkBicFormat('RBKOXKPR').ok, true, 'Kosovo uses XK in BICs');
});

test('punctuation anywhere is reason characters, before any position or length is judged, and its place is named', () => {
  for (const [code, place] of [
    ['DE-TDEFF', '"-" (character 3)'],
    ['COBA_EFF', '"_" (character 5)'],
    ['COBADEF_', '"_" (character 8)'],
    ['DEUTDEFF5_0', '"_" (character 10)'],
    ['COBADEFFXX!', '"!" (character 11)'],
    ['..', '"." (character 1)'],
    ['DEUT.DEFF.XXX.', '"." (character 5)'],
  ]) {
    const r = checkBicFormat(code);
    assert.equal(r.ok ? 'ok' : r.reason, 'characters', code);
    assert.equal(r.ok ? '' : r.message, `a BIC holds only ASCII letters and digits: ${place} is neither`, code);
  }
});

test('a look-alike outside ASCII is reason characters, never folded into the letters it resembles', () => {
  for (const code of ['DEUTDE\uFB01', '\uFF24EUTDEFF', 'DEUTDEF\u0424']) {
    const r = checkBicFormat(code);
    assert.equal(r.ok ? 'ok' : r.reason, 'characters', code);
  }
  assert.equal(checkBicFormat('DEUT\u00a0DEFF').ok, true, 'a no-break space is a space, ignored like any other');
});
