import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SEPA_COUNTRIES, isCountryCode } from '../../src/data/countries.ts';
import {
  COUNTRY_LISTS,
  EU_HIGH_RISK,
  FATF_CALL_FOR_ACTION,
  FATF_INCREASED_MONITORING,
} from '../../src/data/country-lists.ts';

test('the FATF black list holds North Korea, Iran and Myanmar as of the June 2026 plenary', () => {
  assert.deepEqual([...FATF_CALL_FOR_ACTION.countries.keys()].sort(), ['IR', 'KP', 'MM']);
  assert.equal(FATF_CALL_FOR_ACTION.as_of, '2026-06-19');
});

test('the FATF grey list has 22 jurisdictions, with Iraq and Bosnia added and Namibia removed in June 2026', () => {
  const grey = FATF_INCREASED_MONITORING.countries;
  assert.equal(grey.size, 22);
  assert.ok(grey.has('IQ') && grey.has('BA'));
  assert.ok(!grey.has('NA') && !grey.has('DZ'));
});

test('the EU high-risk list has 26 countries including Russia, in force from 29 January 2026', () => {
  assert.equal(EU_HIGH_RISK.countries.size, 26);
  assert.ok(EU_HIGH_RISK.countries.has('RU'));
  assert.ok(!EU_HIGH_RISK.countries.has('NG'), 'Nigeria was removed by (EU) 2026/46');
  assert.equal(EU_HIGH_RISK.as_of, '2026-01-29');
});

test('every listed country is a real ISO 3166 code and every list names its source and date', () => {
  for (const list of COUNTRY_LISTS) {
    assert.ok(list.source.length > 10 && /^\d{4}-\d{2}-\d{2}$/.test(list.as_of), list.id);
    for (const code of list.countries.keys()) assert.ok(isCountryCode(code), `${list.id}: ${code}`);
  }
});

test('SEPA covers the EU, EEA, Switzerland, the UK and the 2025 joiners but not the US or Serbia', () => {
  for (const code of ['DE', 'FR', 'IS', 'NO', 'CH', 'GB', 'MC', 'SM', 'VA', 'AD', 'AL', 'ME', 'MD', 'MK', 'GI', 'JE']) {
    assert.ok(SEPA_COUNTRIES.members.has(code), code);
  }
  for (const code of ['US', 'RS', 'TR', 'UA']) assert.ok(!SEPA_COUNTRIES.members.has(code), code);
  for (const code of SEPA_COUNTRIES.members) assert.ok(isCountryCode(code), code);
});
