import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { DomainError } from '../../src/errors.ts';
import { compliance } from '../../src/data/compliance.ts';
import { type DataPlane, RISK_LEVELS, RISK_WEIGHTS, loadDataPlane } from '../../src/data/index.ts';
import { importFile } from '../../src/data/importers/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';

const SDN =
  '12028,"ONERBANK ZAO",-0- ,"IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"SWIFT/BIC HNRBBY2X; all offices."\r\n' +
  '99,"BRANCH ONLY",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"SWIFT/BIC COBADEFF123."\r\n';

let fresh: DataPlane;
let screened: DataPlane;
before(async () => {
  fresh = await loadDataPlane(openSqliteStore('sqlite::memory:'), { clock: () => Date.parse('2026-11-23T12:00:00Z') });
  const store = openSqliteStore('sqlite::memory:');
  await importFile(store, 'ofac-sdn', { bytes: Buffer.from(SDN, 'latin1'), name: 'sdn.csv', asOf: '2024-05-03' }, 0, {
    force: true,
  });
  // A clock a week after the list's date: these tests are about a list that is still fresh.
  screened = await loadDataPlane(store, { clock: () => Date.parse('2024-05-10T12:00:00Z') });
});

const flagCodes = (a: { flags: { code: string }[] }) => a.flags.map((f) => f.code).sort();

test('a fresh install screens against the bundled OFAC list and says it is stale', () => {
  const listed = fresh.compliance({ bic: 'BKMTIRTH' });
  assert.equal(listed.sanctions.screened, true);
  assert.equal(listed.sanctions.stale, true);
  assert.deepEqual(listed.sanctions.lists, [{ name: 'OFAC SDN', as_of: '2024-05-03' }]);
  assert.equal(listed.sanctions.matches[0]?.list, 'OFAC SDN');
  assert.equal(listed.sanctions.matches[0]?.as_of, '2024-05-03');
  assert.match(listed.sanctions.matches[0]?.name ?? '', /MELLAT/);
  assert.equal(listed.level, 'high');
  assert.match(listed.sanctions.explanation, /more than 30 days old/);

  const german = fresh.compliance({ iban: 'DE89370400440532013000' });
  assert.deepEqual([german.sanctions.screened, german.sanctions.stale], [true, true]);
  assert.deepEqual(german.sanctions.matches, []);
  assert.ok(!german.flags.some((f) => f.code === 'sanctions_not_screened'));
});

test('on a fresh install a stale sanctions list is a flag with its weight in the score, naming the list and its date', () => {
  const german = fresh.compliance({ iban: 'DE89370400440532013000' });
  const stale = german.flags.find((f) => f.code === 'sanctions_stale');
  assert.deepEqual(
    { weight: stale?.weight, source: stale?.source, as_of: stale?.as_of },
    { weight: RISK_WEIGHTS.sanctions_stale, source: 'OFAC SDN', as_of: '2024-05-03' },
  );
  assert.match(stale?.detail ?? '', /more than 30 days old.*not screened/);
  assert.deepEqual(flagCodes(german), ['sanctions_stale']);
  assert.equal(german.score, RISK_WEIGHTS.sanctions_stale);
});

test('a fresh list raises no staleness flag, and no list at all raises only "not screened"', () => {
  const at = (iso: string, lists: { name: string; as_of: string; byBic: Map<string, never[]> }[]) =>
    compliance(
      { iban: 'DE89370400440532013000' },
      { sanctions: lists, now: Date.parse(iso), bankForIban: fresh.bankForIban, sepa: fresh.sepa },
    );
  const list = [{ name: 'X', as_of: '2026-11-01', byBic: new Map() }];
  assert.deepEqual(flagCodes(at('2026-11-20T00:00:00Z', list)), []);
  assert.deepEqual(flagCodes(at('2026-12-02T00:00:00Z', list)), ['sanctions_stale']);
  assert.deepEqual(flagCodes(at('2026-12-02T00:00:00Z', [])), ['sanctions_not_screened']);
});

test('a list is stale once more than 30 days have passed since 00:00 UTC of its as_of', () => {
  const at = (iso: string) =>
    compliance(
      { bic: 'COBADEFF' },
      {
        sanctions: [{ name: 'X', as_of: '2026-11-01', byBic: new Map() }],
        now: Date.parse(iso),
        bankForIban: () => null,
        sepa: fresh.sepa,
      },
    ).sanctions.stale;
  assert.equal(at('2026-12-01T00:00:00Z'), false);
  assert.equal(at('2026-12-01T00:00:00.001Z'), true);
});

test('without any sanctions list the answer says not screened and never claims clean', () => {
  const a = compliance(
    { iban: 'DE89370400440532013000' },
    { sanctions: [], now: 0, bankForIban: fresh.bankForIban, sepa: fresh.sepa },
  );
  assert.equal(a.sanctions.screened, false);
  assert.match(a.sanctions.explanation, /not a clean result/);
  assert.deepEqual(flagCodes(a), ['sanctions_not_screened']);
  assert.equal(a.score, RISK_WEIGHTS.sanctions_not_screened);
  assert.match(a.disclaimer, /not screened by name/);
});

test('a German IBAN whose bank is on no list scores zero and is low', () => {
  const a = screened.compliance({ iban: 'DE89 3704 0044 0532 0130 00' });
  assert.equal(a.subject.bic, 'COBADEFFXXX');
  assert.equal(a.sanctions.screened, true);
  assert.deepEqual(a.sanctions.matches, []);
  assert.deepEqual(a.sanctions.lists, [{ name: 'OFAC SDN', as_of: '2024-05-03' }]);
  assert.equal(a.score, 0);
  assert.equal(a.level, 'low');
  assert.equal(a.sepa?.member, true);
});

test('a BIC listed on the SDN list is high risk, named with its program and entry', () => {
  const a = screened.compliance({ bic: 'HNRBBY2X' });
  assert.equal(a.sanctions.matches[0]?.match, 'exact');
  assert.equal(a.sanctions.matches[0]?.reference, 'OFAC SDN ent_num 12028');
  assert.deepEqual(flagCodes(a), ['outside_sepa', 'sanctioned_bic']);
  assert.equal(a.score, 100);
  assert.equal(a.level, 'high');
  const branch = screened.compliance({ bic: 'HNRBBY2XMSK' });
  assert.equal(branch.sanctions.matches[0]?.match, 'institution', 'an 8-character listing covers every office');
});

test('an 11-character listing hits only that office', () => {
  assert.equal(screened.compliance({ bic: 'COBADEFF123' }).sanctions.matches.length, 1);
  assert.equal(screened.compliance({ bic: 'COBADEFFXXX' }).sanctions.matches.length, 0);
});

test('a bank in a FATF black-list country scores the call-for-action and EU weights', () => {
  const a = screened.compliance({ bic: 'BMJIIRTH' });
  assert.deepEqual(flagCodes(a), ['eu_high_risk_third_countries', 'fatf_call_for_action', 'outside_sepa']);
  assert.equal(
    a.score,
    Math.min(
      100,
      RISK_WEIGHTS.fatf_call_for_action + RISK_WEIGHTS.eu_high_risk_third_countries + RISK_WEIGHTS.outside_sepa,
    ),
  );
  assert.equal(a.level, 'high');
  const black = a.country_lists.find((l) => l.id === 'fatf_call_for_action');
  assert.deepEqual({ listed: black?.listed, as_of: black?.as_of }, { listed: true, as_of: '2026-06-19' });
});

test('a grey-listed SEPA country is medium only through its FATF weight', () => {
  const a = screened.compliance({ bic: 'UNCRBGSF' });
  assert.deepEqual(flagCodes(a), ['fatf_increased_monitoring']);
  assert.equal(a.score, RISK_WEIGHTS.fatf_increased_monitoring);
  assert.equal(a.level, RISK_WEIGHTS.fatf_increased_monitoring >= RISK_LEVELS.medium ? 'medium' : 'low');
});

test('an IBAN whose bank has no known BIC is reported as not screened at bank level', () => {
  const a = screened.compliance({ iban: 'GB82WEST12345698765432' });
  assert.equal(a.subject.bic, null);
  assert.equal(a.sanctions.screened, false);
  assert.ok(flagCodes(a).includes('bank_not_identified'));
});

test('an invalid IBAN is answered with iban_valid false and only its country checked', () => {
  const a = screened.compliance({ iban: 'DE00370400440532013000' });
  assert.equal(a.subject.iban_valid, false);
  assert.equal(a.subject.country, 'DE');
  assert.equal(a.subject.bank, null);
  assert.ok(flagCodes(a).includes('bank_not_identified'));
});

test('an IBAN from a country outside the IBAN registry is still screened by its country prefix', () => {
  const a = screened.compliance({ iban: 'IR710570029971601460641001' });
  assert.equal(a.subject.country, 'IR');
  assert.ok(flagCodes(a).includes('fatf_call_for_action'));
});

test('every flag names a weight from the one table, and every part names its source and date', () => {
  const a = screened.compliance({ bic: 'HNRBBY2X' });
  for (const f of a.flags) assert.equal(f.weight, RISK_WEIGHTS[f.code]);
  for (const l of a.country_lists) assert.ok(l.source && l.as_of);
  assert.ok(a.sepa?.source && a.sepa.as_of);
});

test('an IBAN that names no country is answered high risk with the country unknown, never "not listed"', () => {
  for (const iban of ['', 'XX', '  ', '12345', 'XX00 1234']) {
    const a = screened.compliance({ iban });
    assert.equal(a.subject.country, null, JSON.stringify(iban));
    assert.ok(a.country_lists.every((l) => l.listed === null));
    assert.equal(a.sepa, null);
    assert.ok(a.flags.some((f) => f.code === 'country_not_identified'));
    assert.equal(a.level, 'high');
  }
  assert.throws(
    () => screened.compliance({ bic: 'DEUTXXFF' }),
    (e: unknown) => e instanceof DomainError && e.code === 'invalid_bic' && e.details.reason === 'country_code',
  );
});
