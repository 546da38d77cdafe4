/**
 * SEPA reach per bank (docs/api.md, POST /v1/iban/validate, "SEPA reach") once an operator imported the EPC register of
 * participants: files in the EPC's own column layouts go through `mod97 data import` into the
 * store a running service reads, and validate, batch, compliance and GET /v1/bic answer from
 * them. SQLite always; PostgreSQL when MOD97_TEST_POSTGRES_URL is set.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../../src/cli/run.ts';
import { computeCheckDigits } from '../../src/iban/index.ts';
import { startService, type TestService } from '../support/app.ts';
import { pgUrl, throwawaySchema } from '../support/pg.ts';
import { SHARED_DATA, skipUnlessShared } from '../support/shared-data.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-epc-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Header lines as the EPC exports them: VOP puts Status and Role between BIC and Readiness Date.
const SCHEME_HEADER =
  '"Country","ParticipantName","Address","City","BIC","Readiness Date","Scheme Leaving Date","Scheme Options"';
const VOP_HEADER =
  '"Country","ParticipantName","Address","City","BIC","Status","Role","Readiness Date","Scheme Leaving Date","Scheme Options"';

const REGISTER: Record<string, string[]> = {
  'SepaAdherence.csv': [
    SCHEME_HEADER,
    '"GERMANY","Commerzbank AG","Kaiserstrasse 16","Frankfurt am Main","COBADEFFXXX","2008-01-28","",""',
    '"SWITZERLAND","UBS Switzerland AG","Bahnhofstrasse 45","Zurich","UBSWCHZHXXX","2008-01-28","",""',
    // Listed by no bank directory mod97 loads: only the register names it. It left the scheme.
    '"FRANCE","Nuapay SAS","4 Place Louis-Armand","Paris","NUAAFRP2XXX","2021-05-31","2025-09-01",""',
  ],
  'SepaInstAdherence.csv': [
    SCHEME_HEADER,
    '"GERMANY","Commerzbank AG","Kaiserstrasse 16","Frankfurt am Main","COBADEFFXXX","2017-11-21","",""',
  ],
  'VOPAdherence.csv': [
    VOP_HEADER,
    '"GERMANY","Commerzbank AG","Kaiserstrasse 16","Frankfurt am Main","COBADEFFXXX","Ready for operations","Requesting PSP;Responding PSP","2025-08-04","",""',
  ],
};

const COMMERZBANK_IBAN = 'DE89370400440532013000'; // BLZ 37040044: COBADEFFXXX
const N26_IBAN = `DE${computeCheckDigits('DE', '100110012623745811')}100110012623745811`; // NTSBDEB1XXX, not in the register
const UBS_IBAN = `CH${computeCheckDigits('CH', '00230000012345678')}00230000012345678`; // IID 230: UBSWCHZH80A

const COMMERZBANK_SEPA = {
  country: 'DE',
  member: true,
  schemes: ['SCT', 'SCT_INST'],
  basis: 'epc_register',
  bic: 'COBADEFFXXX',
  vop: { participant: true, status: 'Ready for operations', roles: ['Requesting PSP', 'Responding PSP'] },
  source: 'EPC Register of Participants (SCT, SCT_INST, VOP)',
  // the oldest of the three files' dates
  as_of: '2026-11-02',
};

/** `mod97 data import epc-register <file>`, as an operator runs it against the service's database. */
async function importRegister(databaseUrl: string, file: string, asOf: string): Promise<void> {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const code = await runCli(
    ['data', 'import', 'epc-register', file, '--as-of', asOf],
    { MOD97_DATABASE_URL: databaseUrl },
    io,
  );
  assert.equal(code, 0, lines.join('\n'));
}

/**
 * Waits for the service to load what the store now holds (the poll would, within seconds, and
 * may already have: the data must differ from `before`, whichever reload swapped it).
 */
async function reloaded(svc: TestService, before: string): Promise<void> {
  await svc.services.data.refresh();
  assert.notEqual(svc.services.data.dataVersion(), before, 'the service loaded the imported register');
}

async function answersPerBank(databaseUrl: string): Promise<void> {
  const svc = await startService({ databaseUrl });
  try {
    const key = await svc.makePro(await svc.newKey());
    const validate = async (iban: string) => {
      const r = await svc.call('/v1/iban/validate', { key, json: { iban } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };
    assert.equal((await validate(COMMERZBANK_IBAN)).sepa.basis, 'country', 'nothing imported yet');
    const before = svc.services.data.dataVersion();

    const files = Object.entries(REGISTER).map(([name, lines]) => {
      const file = join(dir, `${Math.random().toString(36).slice(2)}-${name}`);
      writeFileSync(file, `${lines.join('\r\n')}\r\n`);
      return file;
    });
    await importRegister(databaseUrl, files[0]!, '2026-11-02');
    await importRegister(databaseUrl, files[1]!, '2026-11-05');
    await importRegister(databaseUrl, files[2]!, '2026-11-10');
    await reloaded(svc, before);

    // a BIC11 in the register: that bank's schemes and VOP
    const commerzbank = await validate(COMMERZBANK_IBAN);
    assert.equal(commerzbank.bank.bic, 'COBADEFFXXX');
    assert.deepEqual(commerzbank.sepa, COMMERZBANK_SEPA);

    // the bank's BIC11 is not listed, its BIC8 + XXX is; listed in SCT only, not in VOP
    const ubs = await validate(UBS_IBAN);
    assert.equal(ubs.bank.bic, 'UBSWCHZH80A');
    assert.deepEqual(ubs.sepa, {
      ...COMMERZBANK_SEPA,
      country: 'CH',
      schemes: ['SCT'],
      bic: 'UBSWCHZHXXX',
      vop: { participant: false, status: null, roles: [] },
    });

    // a bank the register does not list: per country, as without a register
    const n26 = await validate(N26_IBAN);
    assert.equal(n26.bank.bic, 'NTSBDEB1XXX');
    assert.deepEqual(n26.sepa, {
      country: 'DE',
      member: true,
      schemes: ['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B'],
      basis: 'country',
      bic: null,
      vop: null,
      source: n26.sepa.source,
      as_of: '2025-09-08',
    });
    assert.match(n26.sepa.source, /EPC409-09/);

    const batch = await svc.call('/v1/iban/batch', { key, json: { ibans: [COMMERZBANK_IBAN, UBS_IBAN, N26_IBAN] } });
    assert.equal(batch.status, 200);
    assert.deepEqual(
      batch.body.results.map((r: { sepa: unknown }) => r.sepa),
      [commerzbank.sepa, ubs.sepa, n26.sepa],
    );

    const compliance = async (json: object) => {
      const r = await svc.call('/v1/iban/compliance', { key, json });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.sepa;
    };
    assert.deepEqual(await compliance({ iban: COMMERZBANK_IBAN }), COMMERZBANK_SEPA);
    assert.deepEqual(await compliance({ bic: 'COBADEFF370' }), COMMERZBANK_SEPA, 'BIC8 + XXX');
    assert.equal((await compliance({ iban: N26_IBAN })).basis, 'country');

    const bic = async (code: string) => {
      const r = await svc.call(`/v1/bic/${code}`, { key });
      assert.equal(r.status, 200, code);
      return r.body.sepa;
    };
    assert.deepEqual(await bic('COBADEFF'), COMMERZBANK_SEPA);
    assert.deepEqual(await bic('UBSWCHZH80A'), ubs.sepa);
    assert.deepEqual((await bic('NTSBDEB1')).basis, 'country');
    // A BIC only the register lists is found there, with the register as its source, and the
    // scheme it left is not among its schemes.
    const nuapay = await svc.call('/v1/bic/NUAAFRP2XXX', { key });
    assert.equal(nuapay.status, 200, nuapay.text);
    assert.deepEqual(
      [nuapay.body.name, nuapay.body.city, nuapay.body.address, nuapay.body.match, nuapay.body.sepa.basis],
      ['Nuapay SAS', 'Paris', '4 Place Louis-Armand', 'exact', 'epc_register'],
    );
    assert.match(nuapay.body.sources[0].name, /EPC Register of Participants/);
    assert.equal(nuapay.body.sepa.schemes.includes('SCT'), false);
  } finally {
    await svc.close();
  }
}

describe('an imported EPC register answers SEPA reach per bank', () => {
  test('SQLite', async () => {
    await answersPerBank(`sqlite:${join(dir, 'epc.db')}`);
  });

  test('PostgreSQL', { skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set' }, async () => {
    await answersPerBank(throwawaySchema('mod97_epc').url);
  });
});

const REAL = ['SepaAdherence', 'SepaInstAdherence', 'SDDCoreAdherence', 'SDDB2BAdherence', 'VOPAdherence'].map(
  (n) => `epc-scheme-register/${n}.csv`,
);

test("the EPC's own register files, imported into a running service, answer for Commerzbank and Deutsche Bank", {
  skip: skipUnlessShared(...REAL),
}, async () => {
  const databaseUrl = `sqlite:${join(dir, 'real.db')}`;
  const svc = await startService({ databaseUrl });
  try {
    const before = (await svc.services.data.ready(), svc.services.data.dataVersion());
    for (const path of REAL) await importRegister(databaseUrl, SHARED_DATA + path, '2025-09-08');
    await reloaded(svc, before);
    const key = await svc.makePro(await svc.newKey());
    const everyScheme = {
      member: true,
      schemes: ['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B'],
      basis: 'epc_register',
      vop: { participant: true, status: 'Ready for operations', roles: ['Requesting PSP', 'Responding PSP'] },
      source: 'EPC Register of Participants (SCT, SCT_INST, SDD_CORE, SDD_B2B, VOP)',
      as_of: '2025-09-08',
    };
    const validated = await svc.call('/v1/iban/validate', { key, json: { iban: COMMERZBANK_IBAN } });
    assert.deepEqual(validated.body.sepa, { country: 'DE', bic: 'COBADEFFXXX', ...everyScheme });
    for (const [code, listed] of [
      ['DEUTDEFF', 'DEUTDEFFXXX'],
      ['DEUTDEFF500', 'DEUTDEFFXXX'], // a branch: the register lists the institution's BIC8 + XXX
      ['COBADEFFXXX', 'COBADEFFXXX'],
    ]) {
      const r = await svc.call(`/v1/bic/${code}`, { key });
      assert.equal(r.status, 200, code);
      assert.deepEqual(r.body.sepa, { country: 'DE', bic: listed, ...everyScheme }, code);
    }
    // Albania joined SCT only; its banks' readiness date (2025-10-07) is past on the service's clock
    const albanian = await svc.call('/v1/iban/compliance', { key, json: { bic: 'FINVALTR' } });
    assert.deepEqual([albanian.body.sepa.basis, albanian.body.sepa.schemes], ['epc_register', ['SCT']]);
  } finally {
    await svc.close();
  }
});
