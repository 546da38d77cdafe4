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

test('a party prefix with punctuation is refused, one with digits is accepted (ISO 9362:2014)', () => {
  const bad = checkBicFormat('DE-TDEFF');
  assert.equal(bad.ok ? 'ok' : bad.reason, 'bank_code');
  assert.equal(checkBicFormat('1234DEFF').ok, true);
});

test('a country code that ISO 3166 does not know is refused', () => {
  for (const code of ['DEUTZZFF', 'DEUTD1FF', 'DEUTEUFF']) {
    const r = checkBicFormat(code);
    assert.equal(r.ok ? 'ok' : r.reason, 'country_code', code);
  }
  assert.equal(checkBicFormat('RBKOXKPR').ok, true, 'Kosovo uses XK in BICs');
});

test('bad location and branch characters are refused with their reasons', () => {
  const location = checkBicFormat('DEUTDEF_');
  assert.equal(location.ok ? 'ok' : location.reason, 'location_code');
  const branch = checkBicFormat('DEUTDEFF5_0');
  assert.equal(branch.ok ? 'ok' : branch.reason, 'branch_code');
  assert.match(branch.ok ? '' : branch.message, /branch/);
});
