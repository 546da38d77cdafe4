/**
 * A fresh install names the bank of IBANs from the countries whose data may ship, and from at
 * least 40 countries once the operator has imported schwifty's other files. Each IBAN is a real
 * example: the SWIFT IBAN registry's own example for the country, or, where the registry's
 * example bank is in no directory, a real bank code of the country's register with the
 * registry's example account (check digits recomputed).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DATA_TERMS, SCHWIFTY_IMPORT_FILES } from '../../src/data/bundle/terms.ts';
import { importFile } from '../../src/data/importers/index.ts';
import { startService, type TestService } from '../support/app.ts';
import { SHARED_DATA, skipUnlessShared } from '../support/shared-data.ts';

/** IBAN, and a word of the bank's name as the bundled (or imported) directory gives it. */
const EXAMPLES: Record<string, [string, RegExp]> = {
  AD: ['AD1200012030200359100100', /andbanc/i],
  AE: ['AE070331234567890123456', /Mashreq/i],
  AT: ['AT241000000234573201', /Kontrollbank/i],
  BA: ['BA390000440001200257', /Centralna banka/i],
  BE: ['BE68539007547034', /./],
  BG: ['BG30BGUS96611020345678', /BULGARIAN-AMERICAN/i],
  CH: ['CH3500100011623852957', /Nationalbank/i],
  CR: ['CR05015202001026284066', /COSTA RICA/i],
  CY: ['CY17002001280000001200527600', /BANK OF CYPRUS/i],
  CZ: ['CZ6508000000192000145399', /spořitelna/i],
  DE: ['DE89370400440532013000', /Commerzbank/i],
  DK: ['DK5000400440116243', /NORDEA/i],
  EE: ['EE382200221020145685', /Swedbank/i],
  ES: ['ES9121000418450200051332', /Caixabank/i],
  FI: ['FI2112345600000785', /NORDEA/i],
  FR: ['FR1420041010050500013M02606', /Banque Postale/i],
  GB: ['GB29NWBK60161331926819', /WESTMINSTER/i],
  GE: ['GE29NB0000000101904917', /National Bank of Georgia/i],
  GR: ['GR1601101250000000012300695', /NATIONAL BANK OF GREECE/i],
  HR: ['HR1210010051863000160', /HRVATSKA NARODNA/i],
  HU: ['HU42117730161111101800000000', /OTP/i],
  IE: ['IE29AIBK93115212345678', /Allied Irish/i],
  IL: ['IL060208000000099999999', /Mizrahi/i],
  IS: ['IS140159260076545510730339', /Landsbankinn/i],
  IT: ['IT60X0542811101000000123456', /Banche/i],
  KZ: ['KZ86125KZT5004100100', /Национальный/i],
  LI: ['LI21088100002324013AA', /LGT/i],
  LT: ['LT921010011101001000', /Bank of Lithuania/i],
  LU: ['LU280019400644750000', /[EÉ]pargne/i],
  LV: ['LV66BLIB0000435195001', /BALTIC INTERNATIONAL/i],
  MD: ['MD24AG000225100013104168', /Agroindbank/i],
  ME: ['ME25510000012345678920', /Crnogorska/i],
  NL: ['NL91ABNA0417164300', /ABN AMRO/i],
  NO: ['NO9386011117947', /Danske/i],
  PL: ['PL61109010140000071219812874', /Bank/i],
  PT: ['PT50000101231234567890192', /BANCO DE PORTUGAL/i],
  RO: ['RO77ABNA1B31007593840000', /RBS/i],
  SE: ['SE4550000000058398257466', /SEB/i],
  SI: ['SI56010000012039044', /BANKA SLOVENIJE/i],
  SK: ['SK0502000000198742637541', /Všeobecná/i],
  TR: ['TR240000400519786457841326', /İller/i],
  UA: ['UA213223130000026007233566001', /банк/i],
};

/** The examples' answers from one batch per 20 IBANs (a free key answers 25 a month: one key, one network, a batch). */
async function validated(svc: TestService, ibans: string[], round: number) {
  const results: { iban: string; valid: boolean; bank: { name: string; source: string } | null }[] = [];
  for (let i = 0; i < ibans.length; i += 20) {
    const from = `127.0.${round}.${i / 20 + 1}`;
    const r = await svc.call('/v1/iban/batch', {
      key: await svc.newKey(from),
      from,
      json: { ibans: ibans.slice(i, i + 20) },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    results.push(...r.body.results);
  }
  return results;
}

const BUNDLED = new Set(DATA_TERMS.filter((t) => t.verdict === 'may').flatMap((t) => t.countries));

test('a fresh install names the bank of every example of a country whose data may ship, and no other', async () => {
  const svc = await startService();
  const countries = Object.keys(EXAMPLES);
  const results = await validated(
    svc,
    countries.map((cc) => EXAMPLES[cc]![0]),
    1,
  );
  results.forEach((result, i) => {
    const cc = countries[i]!;
    const [iban, name] = EXAMPLES[cc]!;
    assert.equal(result.valid, true, iban);
    if (BUNDLED.has(cc)) {
      assert.match(result.bank?.name ?? '', name, iban);
      assert.ok(result.bank?.source, iban);
    } else assert.equal(result.bank, null, `${iban}: ${cc}'s bank data is not bundled`);
  });
  assert.ok(countries.filter((cc) => BUNDLED.has(cc)).length >= 10);
});

test('after the operator imports schwifty’s files not bundled, banks of more than 40 countries are named', {
  skip: skipUnlessShared('schwifty-bank-registry/generated_es.json'),
}, async () => {
  assert.ok(Object.keys(EXAMPLES).length >= 40);
  const svc = await startService();
  for (const file of SCHWIFTY_IMPORT_FILES) {
    const bytes = readFileSync(join(SHARED_DATA, 'schwifty-bank-registry', file));
    await importFile(svc.services.store, 'schwifty-registry', { bytes, name: file, asOf: '2026-07-23' }, Date.now());
  }
  await svc.services.data.refresh();
  const countries = Object.keys(EXAMPLES);
  const results = await validated(
    svc,
    countries.map((cc) => EXAMPLES[cc]![0]),
    2,
  );
  results.forEach((result, i) => {
    const [iban, name] = EXAMPLES[countries[i]!]!;
    assert.equal(result.valid, true, iban);
    assert.match(result.bank?.name ?? '', name, iban);
    assert.ok(result.bank?.source, iban);
  });
  assert.equal(new Set(results.map((x) => x.iban.slice(0, 2))).size, countries.length);
});
