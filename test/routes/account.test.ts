/**
 * Account-level answers over HTTP: the German account check from an imported Bundesbank file,
 * IBAN + BIC on validate and batch, territory codes, and POST /v1/iban/from-account.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Static } from 'typebox';
import { importFile } from '../../src/data/importers/index.ts';
import type { BicCheck } from '../../src/describe.ts';
import type { ConstructedFrom } from '../../src/iban/from-account.ts';
import type { GermanCheck } from '../../src/iban/index.ts';
import type { FromAccountAnswer, IbanResult } from '../../src/api/iban-schemas.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { startService, type TestService } from '../support/app.ts';
import { dereferenced } from '../support/openapi-doc.ts';

// Compile-time: the declared answer parts are the domain's types, field for field.
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Same<A, B>) => proof;
same<NonNullable<Static<typeof IbanResult>['bic_check']>, BicCheck>(true);
same<NonNullable<Static<typeof IbanResult>['national_check']>, GermanCheck>(true);
same<Static<typeof FromAccountAnswer>['constructed_from'], ConstructedFrom>(true);

const pad = (s: string, n: number) => s.padEnd(n).slice(0, n);

/** One bank record of the Bundesbank fixed-width BLZ file, with its check method and IBAN rule. */
function blzLine(blz: string, name: string, bic: string, method: string, ibanRule: string): string {
  return `${blz}1${pad(name, 58)}${pad('50447', 5)}${pad('Köln', 35)}${pad(name, 27)}00000${pad(bic, 11)}${method}000001U000000000${ibanRule}`;
}

/** A service whose store holds an imported BLZ file: Commerzbank under method 13, one bank under an IBAN rule. */
async function serviceWithBlzFile(): Promise<TestService> {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'mod97-account-')), 'db.sqlite')}`;
  const store = openSqliteStore(databaseUrl);
  const file = [
    blzLine('37040044', 'Commerzbank', 'COBADEFFXXX', '13', '000503'),
    blzLine('10010010', 'Postbank', 'PBNKDEFFXXX', '24', '000000'),
  ].join('\r\n');
  await importFile(
    store,
    'bundesbank-blz',
    { bytes: Buffer.from(file, 'latin1'), name: 'blz.txt', asOf: '2026-12-07' },
    0,
    { force: true }, // two banks where the bundled directory has thousands
  );
  await store.close();
  return startService({ databaseUrl });
}

describe('German account check digits', () => {
  test("an account its bank's method refuses is valid: false with de_check_failed, though mod 97 holds", async () => {
    const svc = await serviceWithBlzFile();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE55 3704 0044 0532 0140 00' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.valid, false);
    assert.deepEqual(
      r.body.errors.map((e: { code: string }) => e.code),
      ['de_check_failed'],
    );
    assert.equal(r.body.national_check, 'failed');
    assert.equal(r.body.bank, null, 'an invalid IBAN names no bank');
  });

  test("the registry example passes its bank's method", async () => {
    const svc = await serviceWithBlzFile();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' } });
    assert.deepEqual([r.body.valid, r.body.national_check], [true, 'passed']);
  });

  test('a bank whose method no source names is not refused', async () => {
    const svc = await serviceWithBlzFile();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE44999999990532013000' } });
    assert.deepEqual([r.body.valid, r.body.national_check], [true, 'unknown_bank']);
  });
});

describe('IBAN and BIC together', () => {
  test("validate answers bic_check: a BIC8 matches its bank's BIC11, another bank's does not, same cost", async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const iban = 'DE89370400440532013000';
    const same = await svc.call('/v1/iban/validate', { key, json: { iban, bic: 'coba de ff' } });
    assert.equal(same.status, 200);
    assert.deepEqual(same.body.bic_check, { bic: 'COBADEFF', matches: true, expected: ['COBADEFFXXX'] });
    const other = await svc.call('/v1/iban/validate', { key, json: { iban, bic: 'DEUTDEFFXXX' } });
    assert.deepEqual(other.body.bic_check, { bic: 'DEUTDEFFXXX', matches: false, expected: ['COBADEFFXXX'] });
    assert.equal(other.headers['x-quota-used'], '2');
    const plain = await svc.call('/v1/iban/validate', { key, json: { iban } });
    assert.equal('bic_check' in plain.body, false, 'no bic, no bic_check');
  });

  test('matches is null when no source knows the bank', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE44999999990532013000', bic: 'COBADEFF' } });
    assert.deepEqual(r.body.bic_check, { bic: 'COBADEFF', matches: null, expected: [] });
  });

  test('an ill-formed BIC is 400 invalid_bic, and refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const bic of ['COBA', 'A'.repeat(40)]) {
      const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000', bic } });
      assert.equal(r.status, 400, bic);
      assert.deepEqual([r.body.error, r.body.reason], ['invalid_bic', 'length'], bic);
      assert.equal(r.headers['x-quota-used'], '0');
    }
  });

  test('a batch takes strings and {iban, bic} items, in order, one unit each', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/batch', {
      key,
      json: {
        ibans: [
          'DE89370400440532013000',
          { iban: 'DE89370400440532013000', bic: 'DEUTDEFF' },
          { iban: 'DE89370400440532013000' },
        ],
      },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.count, 3);
    assert.deepEqual(
      r.body.results.map((x: { bic_check?: { matches: boolean } }) => x.bic_check?.matches),
      [undefined, false, undefined],
    );
    assert.equal(r.headers['x-quota-used'], '3');
  });

  test('one ill-formed BIC refuses the whole batch with 400 invalid_bic naming the item', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/batch', {
      key,
      json: { ibans: ['DE89370400440532013000', { iban: 'DE89370400440532013000', bic: 'CO BA DE' }] },
    });
    assert.equal(r.status, 400);
    assert.deepEqual([r.body.error, r.body.item], ['invalid_bic', 1]);
    assert.equal(r.headers['x-quota-used'], '0');
    const long = await svc.call('/v1/iban/batch', {
      key,
      json: { ibans: [{ iban: 'DE89370400440532013000', bic: 'A'.repeat(40) }] },
    });
    assert.deepEqual(
      [long.status, long.body.error, long.body.reason, long.body.item],
      [400, 'invalid_bic', 'length', 0],
    );
  });

  test('a batch item that is neither a string nor {iban} is 400 invalid_request', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const item of [12, { bic: 'COBADEFF' }, null]) {
      const r = await svc.call('/v1/iban/batch', { key, json: { ibans: [item] } });
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_request'], JSON.stringify(item));
    }
  });
});

describe('territory codes', () => {
  test('a French overseas code is territory_code naming FR, with the FR IBAN of the same BBAN suggested', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', { json: { iban: 'GP14 2004 1010 0505 0001 3M02 606' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.valid, false);
    assert.equal(r.body.errors[0].code, 'territory_code');
    assert.equal(r.body.errors[0].parent, 'FR');
    // the names come from ICU, loaded on the first territory code (src/iban/territory.ts)
    assert.equal(
      r.body.errors[0].message,
      'GP is not an IBAN country code: IBANs of Guadeloupe are issued under FR (France).',
    );
    assert.deepEqual(r.body.suggestions, ['FR1420041010050500013M02606']);
  });

  test('Jersey is issued under GB; a BBAN that does not fit GB gets no suggestion', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', { json: { iban: 'JE12 3456' } });
    assert.deepEqual(
      [r.body.errors[0].code, r.body.errors[0].parent, r.body.suggestions],
      ['territory_code', 'GB', []],
    );
  });
});

describe('POST /v1/iban/from-account', () => {
  test('builds the IBAN and answers its validate answer with the parts as used, cost 1', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/from-account', {
      key,
      json: { country: 'fr', bank_code: '20041', branch_code: '01005', account: '0500013M026' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.iban, 'FR1420041010050500013M02606');
    assert.equal(r.body.valid, true);
    assert.deepEqual(r.body.constructed_from, {
      country: 'FR',
      bank_code: '20041',
      branch_code: '01005',
      account: '0500013M026',
      national_check_digits: '06',
    });
    assert.equal(r.body.attribution.text, 'Powered by mod97');
    assert.equal(r.headers['x-quota-used'], '1');
    assert.equal('iban_rule' in r.body, false, 'only German answers carry iban_rule');
  });

  test('a German bank under a special IBAN rule is flagged; a bank without a known rule says so', async () => {
    const svc = await serviceWithBlzFile();
    const key = await svc.newKey();
    const flagged = await svc.call('/v1/iban/from-account', {
      key,
      json: { country: 'DE', bank_code: '37040044', account: '532013000' },
    });
    assert.equal(flagged.body.iban, 'DE89370400440532013000');
    assert.deepEqual([flagged.body.iban_rule.rule, flagged.body.iban_rule.standard], ['000503', false]);
    assert.match(flagged.body.iban_rule.message, /may not be the one the bank issued/);
    const unknown = await svc.call('/v1/iban/from-account', {
      key,
      json: { country: 'DE', bank_code: '20050550', account: '1234567' },
    });
    assert.deepEqual([unknown.body.iban_rule.rule, unknown.body.iban_rule.standard], [null, null]);
  });

  test('a missing or ill-fitting part is 400 invalid_request naming the field, and refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const cases: [Record<string, unknown>, string][] = [
      [{ country: 'DE', bank_code: '37040044' }, 'account'],
      [{ country: 'DE', account: '532013000' }, 'bank_code'],
      [{ country: 'DE', bank_code: '37040044', account: 532013000 }, 'account'],
      [{ country: 'DE', bank_code: '370400', account: '532013000' }, 'bank_code'],
      [{ country: 'ES', bank_code: '2100', account: '0200051332' }, 'branch_code'],
      [{ bank_code: '37040044', account: '1' }, 'country'],
    ];
    for (const [json, field] of cases) {
      const r = await svc.call('/v1/iban/from-account', { key, json });
      assert.deepEqual([r.status, r.body.error, r.body.field], [400, 'invalid_request', field], JSON.stringify(json));
      assert.equal(typeof r.body.message, 'string');
    }
    const usage = await svc.call('/v1/keys/usage', { key });
    assert.equal(usage.body.used, 0);
  });

  test('a country the route does not build is 400 unsupported_country', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/from-account', { key, json: { country: 'US', bank_code: '1', account: '1' } });
    assert.deepEqual([r.status, r.body.error, r.body.field], [400, 'unsupported_country', 'country']);
  });

  test('needs a key or a payment: no trial', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/from-account', { json: { country: 'DE', bank_code: '37040044', account: '1' } });
    assert.equal(r.status, 402);
  });
});

test('/openapi.json documents the new route and fields', async () => {
  const svc = await startService();
  const doc = dereferenced((await svc.call('/openapi.json')).body);
  const schemaOf = (path: string) =>
    doc.paths[path]?.post?.responses?.[200]?.content?.['application/json']?.schema as { properties: object };
  assert.ok('constructed_from' in schemaOf('/v1/iban/from-account').properties);
  assert.ok('iban_rule' in schemaOf('/v1/iban/from-account').properties);
  for (const field of ['bic_check', 'national_check'])
    assert.ok(field in schemaOf('/v1/iban/validate').properties, field);
  const body = doc.paths['/v1/iban/from-account'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(Object.keys(body.properties).sort(), ['account', 'bank_code', 'branch_code', 'country']);
});
