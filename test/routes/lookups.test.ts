import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { importFile } from '../../src/data/importers/index.ts';
import { computeCheckDigits } from '../../src/iban/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { SHARED_DATA, skipUnlessShared } from '../support/shared-data.ts';
import { startService, type TestService } from '../support/app.ts';

const proKey = async (svc: TestService): Promise<string> => svc.makePro(await svc.newKey());

describe('GET /v1/bic/:code', () => {
  test('a known BIC answers its institution with dated sources, costs 1, and carries attribution on a free key', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/bic/deutdeff', { key });
    assert.equal(r.status, 200);
    assert.deepEqual(
      [r.body.bic8, r.body.bic11, r.body.name, r.body.country.code, r.body.branch.primary_office, r.body.test_bic],
      ['DEUTDEFF', 'DEUTDEFFXXX', 'Deutsche Bank AG', 'DE', true, false],
    );
    assert.ok(r.body.sources.length > 0 && r.body.sources.every((s: { name: string }) => typeof s.name === 'string'));
    assert.equal(r.body.attribution.text, 'Powered by mod97');
    assert.equal(r.headers['x-quota-used'], '1');
  });

  test('a malformed BIC is 400 invalid_bic with its reason, and refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/bic/DEU1', { key });
    assert.equal(r.status, 400);
    assert.deepEqual([r.body.error, r.body.reason], ['invalid_bic', 'length']);
    assert.equal(r.headers['x-quota-used'], '0');
  });

  test('punctuation anywhere in a code is 400 invalid_bic with reason characters, refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const code of ['COBADEF_', 'COBA_EFF', 'COBADEFFXX%21', 'DE-TDEFF', 'COBADEFF.']) {
      const r = await svc.call(`/v1/bic/${code}`, { key });
      assert.equal(r.status, 400, code);
      assert.deepEqual([r.body.error, r.body.reason], ['invalid_bic', 'characters'], code);
      assert.match(
        r.body.message,
        /^a BIC holds only ASCII letters and digits: "[_!.-]" \(character \d+\) is neither$/,
      );
      assert.equal(r.headers['x-quota-used'], '0', code);
    }
    const compliance = await svc.call('/v1/iban/compliance', { key, json: { bic: 'COBADEF_' } });
    assert.deepEqual(
      [compliance.status, compliance.body.error, compliance.body.reason],
      [400, 'invalid_bic', 'characters'],
    );
    // Of any length, as the path's code: the route's own reason, not the schema's limit.
    const long = await svc.call('/v1/iban/compliance', { key, json: { bic: 'A'.repeat(40) } });
    assert.deepEqual([long.status, long.body.error, long.body.reason], [400, 'invalid_bic', 'length']);
  });

  test('a code over 100 characters is the same 400 invalid_bic (length), refunded with the quota headers', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const length of [33, 101, 150, 4000]) {
      const r = await svc.call(`/v1/bic/${'A'.repeat(length)}`, { key });
      assert.equal(r.status, 400, `${length} characters: ${r.text.slice(0, 200)}`);
      assert.deepEqual([r.body.error, r.body.reason], ['invalid_bic', 'length']);
      assert.equal(r.body.message, `a BIC has 8 or 11 characters, this one has ${length}`);
      assert.deepEqual([r.headers['x-quota-used'], r.headers['x-quota-limit']], ['0', '25']);
    }
  });

  test('a well-formed BIC no source knows is 404 bic_not_found, and refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/bic/ZZZZDEFF', { key });
    assert.equal(r.status, 404);
    assert.equal(r.body.error, 'bic_not_found');
    assert.equal(r.headers['x-quota-used'], '0');
    // `sources` is what was searched: the bank directories, not the country or sanctions lists
    const searched = r.body.sources.map((s: { name: string }) => s.name).join(' | ');
    assert.match(searched, /schwifty bank registry/);
    assert.doesNotMatch(searched, /FATF|2016\/1675|EPC409|OFAC/, searched);
  });

  test('without a key or payment it is 402 key_or_payment_required', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/bic/DEUTDEFF');
    assert.equal(r.status, 402);
    assert.equal(r.body.cause.reason, 'key_or_payment_required');
  });
});

describe('GET /v1/ch/clearing/:iid', () => {
  test('an IID answers the SIX fields, with or without leading zeros', async () => {
    const svc = await startService();
    const key = await proKey(svc);
    const plain = await svc.call('/v1/ch/clearing/100', { key });
    const padded = await svc.call('/v1/ch/clearing/00100', { key });
    assert.equal(plain.status, 200);
    assert.deepEqual(padded.body, plain.body);
    assert.deepEqual(
      [plain.body.name, plain.body.bic, plain.body.sic_participation],
      ['Schweizerische Nationalbank', 'SNBZCHZZXXX', true],
    );
    assert.ok(plain.body.valid_on && plain.body.source);
    assert.equal('attribution' in plain.body, false, 'a Pro key carries no attribution');
  });

  test('an unknown IID is 404 clearing_not_found and a malformed one 400, both refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const unknown = await svc.call('/v1/ch/clearing/99999', { key });
    assert.deepEqual([unknown.status, unknown.body.error], [404, 'clearing_not_found']);
    const malformed = await svc.call('/v1/ch/clearing/12a', { key });
    assert.deepEqual([malformed.status, malformed.body.error], [400, 'invalid_request']);
    assert.equal(malformed.headers['x-quota-used'], '0');
    // Past 100 characters too: the route's own 400, not the router's.
    const long = await svc.call(`/v1/ch/clearing/${'1'.repeat(150)}`, { key });
    assert.deepEqual([long.status, long.body.error, long.body.field], [400, 'invalid_request', 'iid']);
    assert.match(long.body.message, /^`iid` \(in the path\) does not have the expected form/);
    assert.deepEqual([long.headers['x-quota-used'], long.headers['x-quota-limit']], ['0', '25']);
  });

  test('with the SIX BankMaster V3 file imported, every one of its IIDs resolves through the route', {
    skip: skipUnlessShared('six-bankmaster-v3/bankmaster_V3.csv'),
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mod97-six-'));
    const url = `sqlite:${join(dir, 'six.db')}`;
    const store = openSqliteStore(url);
    const path = 'six-bankmaster-v3/bankmaster_V3.csv';
    await importFile(store, 'six-bankmaster', { bytes: readFileSync(SHARED_DATA + path), name: path }, Date.now());
    await store.close();
    const iids = readFileSync(SHARED_DATA + path, 'utf8')
      .split(/\r?\n/)
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split(';')[0]);
    const svc = await startService({ databaseUrl: url });
    const key = await proKey(svc);
    const missing: string[] = [];
    for (let i = 0; i < iids.length; i += 50) {
      const replies = await Promise.all(
        iids.slice(i, i + 50).map((iid) => svc.call(`/v1/ch/clearing/${iid}`, { key })),
      );
      replies.forEach((r, j) => {
        if (r.status !== 200 || Number(r.body.iid) !== Number(iids[i + j])) missing.push(iids[i + j]);
      });
    }
    assert.ok(iids.length > 1000, `read ${iids.length} IIDs`);
    assert.deepEqual(missing, []);
    const snb = await svc.call('/v1/ch/clearing/100', { key });
    assert.equal(snb.body.valid_on, '2025-09-02', 'imported data outranks the bundled copy');
  });
});

describe('POST /v1/iban/compliance', () => {
  test('on a fresh install an IBAN is screened against the bundled, dated OFAC list, with country lists and a score', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/compliance', { key, json: { iban: 'DE89370400440532013000' } });
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.sanctions.screened, r.body.sanctions.stale], [true, true]);
    assert.deepEqual(r.body.sanctions.lists, [{ name: 'OFAC SDN', as_of: '2024-05-03' }]);
    assert.deepEqual(r.body.sanctions.matches, []);
    assert.ok(!r.body.flags.some((f: { code: string }) => f.code === 'sanctions_not_screened'));
    const listed = await svc.call('/v1/iban/compliance', { key, json: { bic: 'BKMTIRTH' } });
    assert.deepEqual(
      [listed.body.sanctions.matches[0]?.list, listed.body.sanctions.matches[0]?.as_of, listed.body.sanctions.stale],
      ['OFAC SDN', '2024-05-03', true],
    );
    assert.ok(r.body.country_lists.every((l: { as_of: string; source: string }) => l.as_of && l.source));
    assert.ok(r.body.score >= 0 && r.body.score <= 100);
    assert.match(r.body.disclaimer, /not name screening|bank-level/i);
    const stale = r.body.flags.find((f: { code: string }) => f.code === 'sanctions_stale');
    assert.deepEqual([stale?.weight, stale?.source, stale?.as_of], [10, 'OFAC SDN', '2024-05-03']);
    assert.ok(r.body.score >= stale.weight, 'the staleness counts in the score');
  });

  test('neither or both of iban and bic is 400 invalid_request; a malformed bic is 400 invalid_bic; all refunded', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const json of [{}, { iban: 'DE89370400440532013000', bic: 'DEUTDEFF' }]) {
      const r = await svc.call('/v1/iban/compliance', { key, json });
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_request']);
    }
    const bad = await svc.call('/v1/iban/compliance', { key, json: { bic: 'nope' } });
    assert.deepEqual([bad.status, bad.body.error], [400, 'invalid_bic']);
    assert.equal(bad.headers['x-quota-used'], '0');
  });

  test("with OFAC sdn.csv imported, a listed bank's BIC is high risk and names the list and its date", {
    skip: skipUnlessShared('ofac-sdn/sdn.csv'),
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mod97-ofac-'));
    const url = `sqlite:${join(dir, 'ofac.db')}`;
    const store = openSqliteStore(url);
    const parsed = await importFile(
      store,
      'ofac-sdn',
      { bytes: readFileSync(`${SHARED_DATA}ofac-sdn/sdn.csv`), name: 'sdn.csv', asOf: '2024-05-03' },
      Date.now(),
    );
    await store.close();
    const listed = (parsed.records as { bic: string }[])[0].bic;
    const svc = await startService({ databaseUrl: url });
    const key = await svc.newKey();
    const r = await svc.call('/v1/iban/compliance', { key, json: { bic: listed } });
    assert.equal(r.status, 200);
    assert.equal(r.body.sanctions.screened, true);
    assert.equal(r.body.level, 'high');
    assert.ok(r.body.sanctions.matches.length > 0);
    assert.ok(r.body.sanctions.lists.every((l: { as_of: string }) => l.as_of));
  });
});

describe('POST /v1/iban/validate with data', () => {
  test('a valid German IBAN names its bank and source, SEPA reach, and the data version', async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', { json: { iban: 'DE89 3704 0044 0532 0130 00' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.valid, true);
    assert.equal(r.body.bank.bic, 'COBADEFFXXX');
    assert.ok(r.body.bank.source && r.body.bank.as_of);
    assert.equal(r.body.sepa.member, true);
    assert.match(r.body.data_version, /^\d{4}-\d{2}-\d{2}\./);
  });

  test('a Swiss IBAN carries a clearing summary of its IID', async () => {
    const svc = await startService();
    const bban = '00230' + '000012345678';
    const r = await svc.call('/v1/iban/validate', { json: { iban: `CH${computeCheckDigits('CH', bban)}${bban}` } });
    assert.equal(r.body.valid, true);
    assert.deepEqual(
      [r.body.clearing.iid, r.body.clearing.name, r.body.clearing.qr_iid],
      ['230', 'UBS Switzerland AG', false],
    );
  });

  test("a QR-IBAN names its bank from the QR-IID's row, as the clearing summary does", async () => {
    const svc = await startService();
    const r = await svc.call('/v1/iban/validate', { json: { iban: 'CH74 3000 0000 0123 4567 8' } });
    assert.deepEqual([r.body.valid, r.body.qr_iban, r.body.clearing.name], [true, true, 'PostFinance AG']);
    assert.deepEqual([r.body.bank?.name, r.body.bank?.bic], ['PostFinance AG', 'POFICHBEXXX']);
    // the BIC is the bank's own: a BIC of another bank sent with it does not match
    const check = await svc.call('/v1/iban/validate', {
      json: { iban: 'CH74 3000 0000 0123 4567 8', bic: 'UBSWCHZH80A' },
    });
    assert.equal(check.body.bic_check?.matches, false);
  });
});
