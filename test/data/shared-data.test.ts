import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { type DataPlane, loadDataPlane } from '../../src/data/index.ts';
import { ImportError, importFile } from '../../src/data/importers/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { SHARED_DATA as shared, skipUnlessShared } from '../support/shared-data.ts';

const file = (path: string) => ({ bytes: readFileSync(shared + path), name: path });
const SIX = 'six-bankmaster-v3/bankmaster_V3.csv';
const EPC = ['SepaAdherence', 'SepaInstAdherence', 'SDDCoreAdherence', 'SDDB2BAdherence', 'VOPAdherence'].map(
  (n) => `epc-scheme-register/${n}.csv`,
);
const SDN = 'ofac-sdn/sdn.csv';
const SDN_BICS = 'ofac-sdn/sdn-swift-bic.json';
const SCL = 'bundesbank-scl-directory/scl-directory.csv';

// each test skips on its own missing files, so one absent file does not fail the others
describe("importing the publishers' own files", () => {
  const store = openSqliteStore('sqlite::memory:');
  let plane: DataPlane;
  const sixRows = () =>
    readFileSync(shared + SIX, 'utf8')
      .split(/\r?\n/)
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(';'));

  before(async () => {
    if (!skipUnlessShared(SIX)) await importFile(store, 'six-bankmaster', file(SIX), 0);
    for (const path of EPC) {
      if (!skipUnlessShared(path)) await importFile(store, 'epc-register', { ...file(path), asOf: '2025-09-08' }, 0);
    }
    if (!skipUnlessShared(SDN)) await importFile(store, 'ofac-sdn', { ...file(SDN), asOf: '2024-05-03' }, 0);
    plane = await loadDataPlane(store);
  });

  test('the SIX V3 file is stored whole with its valid-on date and creation stamp', {
    skip: skipUnlessShared(SIX),
  }, async () => {
    const six = await store.getDataset('six-bankmaster');
    assert.equal(six?.meta.count, sixRows().length);
    assert.equal(six?.meta.asOf, '2025-09-02');
    assert.match(six?.meta.source ?? '', /V3 created 2025-09-01/);
  });

  test('every IID of the SIX file resolves through clearing, with and without leading zeros', {
    skip: skipUnlessShared(SIX),
  }, () => {
    for (const row of sixRows()) {
      const iid = row[0]!;
      const c = plane.clearing(iid.padStart(5, '0'));
      assert.ok(c, `IID ${iid}`);
      assert.equal(c.iid, iid);
      assert.equal(c.bic, row[14] || null, `BIC of ${iid}`);
      assert.equal(c.concatenated, row[2] === 'Y');
      if (c.concatenated) assert.equal(c.successor?.iid, row[3]);
      else assert.equal(c.instant_payments_chf, row[17] === 'Y');
    }
  });

  test('an imported SIX file replaces the bundled 2020 Swiss data', { skip: skipUnlessShared(SIX) }, () => {
    assert.equal(plane.clearing('100')?.as_of, '2025-09-02');
    assert.equal(plane.clearingSummary('100')?.source, 'SIX BankMaster V3 created 2025-09-01 16:30');
    assert.equal(plane.bankForIban('CH', '00230')?.as_of, '2025-09-02');
  });

  test('the EPC registers (four schemes and VOP) give each listed bank its adherence', {
    skip: skipUnlessShared(...EPC),
  }, async () => {
    for (const kind of ['epc-sct', 'epc-sct-inst', 'epc-sdd-core', 'epc-sdd-b2b', 'epc-vop']) {
      assert.ok(((await store.getDataset(kind))?.meta.count ?? 0) > 2000, kind);
    }
    assert.equal(plane.sepa('DE').basis, 'country', 'without a BIC, per country');
    const andorra = plane.sepa('AD', 'BACAADADXXX');
    assert.deepEqual([andorra.basis, andorra.schemes], ['epc_register', ['SCT', 'SCT_INST', 'SDD_CORE']]);
    assert.deepEqual(plane.sepa('AL', 'FINVALTR').schemes, ['SCT'], 'Albanian banks had joined SCT only');
  });

  test('every BIC named in the SDN remarks is flagged as sanctioned', { skip: skipUnlessShared(SDN, SDN_BICS) }, () => {
    const expected = JSON.parse(readFileSync(shared + SDN_BICS, 'utf8')) as { entries: { bics: string[] }[] };
    const bics = expected.entries.flatMap((e) => e.bics);
    assert.ok(bics.length > 100);
    for (const bic of bics) {
      const a = plane.compliance({ bic });
      assert.ok(
        a.flags.some((f) => f.code === 'sanctioned_bic'),
        bic,
      );
      assert.equal(a.level, 'high');
    }
  });

  test('the Bundesbank SCL directory is refused as a BLZ file and leaves the store unchanged', {
    skip: skipUnlessShared(SCL),
  }, async () => {
    await assert.rejects(importFile(store, 'bundesbank-blz', { ...file(SCL), asOf: '2025-08-25' }, 0), ImportError);
    assert.equal(await store.getDataset('bundesbank-blz'), null);
  });
});

test('a missing reference file skips only its tests, named in the reason', () => {
  assert.equal(skipUnlessShared('no-such-folder/file.csv'), `${shared}no-such-folder/file.csv is not present`);
  assert.equal(skipUnlessShared(), false);
});
