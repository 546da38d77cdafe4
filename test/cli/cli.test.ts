import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { runCli } from '../../src/cli/run.ts';
import { loadDataPlane } from '../../src/data/index.ts';
import { openStore } from '../../src/store/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { pgAdmin, pgUrl, throwawaySchema } from '../support/pg.ts';
import { loopbackServer } from '../support/loopback.ts';
import { SHARED_DATA as shared, skipUnlessShared } from '../support/shared-data.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, () =>
    Date.parse('2026-11-21T12:00:00Z'),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('data import stores a file under its kind and data list shows it with its date', async () => {
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'import.db')}` };
  const file = join(dir, 'bic-lei.csv');
  writeFileSync(file, 'LEI,BIC\n7LTWFZYICNSX8D621K86,DEUTDEFFXXX\n');
  const imported = await run(['data', 'import', 'gleif-bic-lei', file, '--as-of', '2026-11-01'], env);
  assert.equal(imported.code, 0, imported.err);
  assert.match(imported.out, /imported gleif-bic-lei: 1 record, as of 2026-11-01/);
  const listed = await run(['data', 'list'], env);
  assert.match(listed.out, /gleif-bic-lei\t1 record\tas of 2026-11-01/);
  assert.match(listed.out, /bundled:\n.*schwifty bank registry/);
  assert.match(listed.out, new RegExp(`^database: sqlite:${join(dir, 'import.db')}\n`), 'names the database it read');
});

test('data list never creates a database: it says there is none, and where it looked', async () => {
  const path = join(dir, 'nowhere', 'mod97.db');
  const listed = await run(['data', 'list'], { MOD97_DATABASE_URL: `sqlite:${path}` });
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, new RegExp(`^database: none at ${path} \\(MOD97_DATABASE_URL\\); nothing imported`));
  assert.match(listed.out, /bundled:\n.*schwifty bank registry/);
  // the dates the service's answers carry: the German delta's since its day (2026-09-07), and the country lists too
  assert.match(listed.out, /bankdata-germany\S* \(Deutsche Bundesbank BLZ\)\tas of 2026-09-07\t/);
  assert.match(listed.out, /\n {2}FATF public statement, plenary of .*\tas of \d{4}-\d{2}-\d{2}\n/);
  assert.match(listed.out, /\n {2}EPC409-09 List of countries in the SEPA schemes' geographical scope/);
  assert.equal(existsSync(path), false, 'no file was created');
  assert.equal(existsSync(join(dir, 'nowhere')), false, 'nor its folder');
});

test('data list against a PostgreSQL server that cannot be reached names it, without the password, and what to check', async () => {
  const listed = await run(['data', 'list'], {
    MOD97_DATABASE_URL: 'postgres://mod97:hunter2-secret@127.0.0.1:2/mod97',
  });
  assert.equal(listed.code, 1);
  assert.match(
    listed.err,
    /^error: PostgreSQL at 127\.0\.0\.1:2 \(database "mod97", user "mod97"\) cannot be reached: connect ECONNREFUSED 127\.0\.0\.1:2\. Check that the server runs and that MOD97_DATABASE_URL names it\.$/,
  );
  assert.doesNotMatch(`${listed.out}\n${listed.err}`, /hunter2-secret/);
});

test('data list on PostgreSQL never creates a store either', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, async () => {
  const { schema, url } = throwawaySchema('mod97_list');
  const listed = await run(['data', 'list'], { MOD97_DATABASE_URL: url });
  assert.equal(listed.code, 0, listed.err);
  assert.match(
    listed.out,
    /^database: none at postgres:\/\/.*\(MOD97_DATABASE_URL\); nothing imported, and nothing was created/,
  );
  const admin = await pgAdmin(pgUrl ?? '');
  try {
    const found = await admin.unsafe('SELECT 1 FROM information_schema.tables WHERE table_schema = $1', [schema]);
    assert.equal(found.length, 0, 'no table was made');
  } finally {
    await admin.end();
  }
  // Once the store exists, it is listed.
  await (await openStore(url)).close();
  const existing = await run(['data', 'list'], { MOD97_DATABASE_URL: url });
  assert.match(existing.out, /^database: postgres:\/\/.*\nimported: none/);
});

test('wrong usage exits 2 with the usage text, a bad file exits 1 with the reason', async () => {
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'usage.db')}` };
  const usage = await run(['data', 'import', 'ofac-sdn'], env);
  assert.equal(usage.code, 2);
  assert.equal(usage.err, 'error: data import takes <kind> <file> (see mod97 data --help)');
  assert.equal((await run(['data', 'import', 'x', 'y', '--as-of', 'yesterday'], env)).code, 2);
  // A date that is not one, or is still to come, would make old sanctions data look fresh.
  for (const [asOf, said] of [
    ['2025-13-45', /--as-of 2025-13-45 is not a date of the calendar/],
    ['2025-02-29', /not a date of the calendar/],
    ['2099-01-01', /--as-of 2099-01-01 is in the future/],
  ] as const) {
    const refused = await run(['data', 'import', 'ofac-sdn', 'sdn.csv', '--as-of', asOf], env);
    assert.deepEqual([refused.code, said.test(refused.err)], [2, true], refused.err);
  }
  const file = join(dir, 'junk.csv');
  writeFileSync(file, 'hello\n');
  const bad = await run(['data', 'import', 'ofac-sdn', file], env);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /not OFAC sdn\.csv/);
  assert.equal((await run(['data', 'import', 'nonsense', file], env)).code, 1);
  const missing = await run(['data', 'import', 'ofac-sdn', join(dir, 'absent.csv'), '--as-of', '2026-11-01'], env);
  assert.deepEqual([missing.code, missing.err], [2, `error: cannot read ${join(dir, 'absent.csv')}: no such file`]);
});

test('a file that states no date is refused without --as-of, whatever its modification time, and stores nothing', async () => {
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'as-of.db')}` };
  const file = join(dir, 'sdn.csv');
  writeFileSync(
    file,
    '906,"HAVIN BANK LIMITED",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"SWIFT/BIC HAVIGB2L."\r\n',
  );
  const refused = await run(['data', 'import', 'ofac-sdn', file], env);
  assert.equal(refused.code, 1);
  assert.match(
    refused.err,
    /cannot tell the date of .*sdn\.csv: OFAC sdn\.csv carries no date; pass --as-of YYYY-MM-DD/,
  );
  assert.match((await run(['data', 'list'], env)).out, /imported: none|nothing imported/);
  const given = await run(['data', 'import', 'ofac-sdn', file, '--as-of', '2024-05-03', '--force'], env);
  assert.equal(given.code, 0, given.err);
  assert.match(given.out, /imported ofac-sdn: 1 record, as of 2024-05-03 \(given by --as-of\)/);
});

test('an sdn_advanced.xml is told by its content and dated by its DateOfIssue, with no --as-of', async () => {
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'xml.db')}` };
  const file = join(dir, 'download.bin');
  writeFileSync(
    file,
    '<?xml version="1.0"?><Sanctions><DateOfIssue><Year>2026</Year><Month>11</Month><Day>7</Day></DateOfIssue>' +
      '<ReferenceValueSets><FeatureTypeValues><FeatureType ID="1">SWIFT/BIC</FeatureType></FeatureTypeValues></ReferenceValueSets>' +
      '<DistinctParties><DistinctParty FixedRef="906"><Profile ID="906"><Feature FeatureTypeID="1"><FeatureVersion><VersionDetail>HAVIGB2L</VersionDetail></FeatureVersion></Feature></Profile></DistinctParty></DistinctParties></Sanctions>',
  );
  const result = await run(['data', 'import', 'ofac-sdn', file, '--force'], env);
  assert.equal(result.code, 0, result.err);
  assert.match(
    result.out,
    /imported ofac-sdn: 1 record, as of 2026-11-07 \(stated in the file\), source: OFAC SDN list \(sdn_advanced\.xml\)$/,
  );
});

const SIX = 'six-bankmaster-v3/bankmaster_V3.csv';
const SCT = 'epc-scheme-register/SepaAdherence.csv';
const SCT_INST = 'epc-scheme-register/SepaInstAdherence.csv';
const SDN = 'ofac-sdn/sdn.csv';

/** A publisher on 127.0.0.1 serving the shared files by path, with their Last-Modified where given. */
const served = new Map<string, { path: string; lastModified?: string }>([
  ['/six/bankmaster_V3.csv', { path: SIX }],
  ['/epc/sct/SepaAdherence.csv', { path: SCT, lastModified: 'Mon, 08 Sep 2025 10:00:00 GMT' }],
  ['/epc/sct_inst/SepaInstAdherence.csv', { path: SCT_INST, lastModified: 'Mon, 08 Sep 2025 10:00:00 GMT' }],
  ['/ofac/sdn.csv', { path: SDN, lastModified: 'Fri, 03 May 2024 18:43:23 GMT' }],
  ['/undated/sdn.csv', { path: SDN }],
]);
const base = await loopbackServer((req, res) => {
  const hit = served.get(req.url ?? '');
  if (!hit) return void res.writeHead(404).end('not found');
  res
    .writeHead(200, hit.lastModified ? { 'last-modified': hit.lastModified } : {})
    .end(readFileSync(shared + hit.path));
});

describe('data update downloads from the configured addresses', {
  skip: skipUnlessShared(SIX, SCT, SCT_INST, SDN),
}, () => {
  const env: NodeJS.ProcessEnv = {
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'update.db')}`,
    MOD97_DATA_URL_SIX_BANKMASTER: `${base}/six/bankmaster_V3.csv`,
    MOD97_DATA_URL_EPC_REGISTER: `${base}/epc/sct/SepaAdherence.csv, ${base}/epc/sct_inst/SepaInstAdherence.csv`,
    MOD97_DATA_URL_OFAC_SDN: `${base}/ofac/sdn.csv`,
    MOD97_DATA_URL_GLEIF_BIC_LEI: `${base}/missing.zip`,
  };

  test('the named kinds are downloaded, dated by Last-Modified and imported', async () => {
    const result = await run(['data', 'update', 'six-bankmaster', 'epc-register', 'ofac-sdn'], env);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /updated six-bankmaster .*as of 2025-09-02 \(stated in the file\)/);
    assert.match(
      result.out,
      /updated epc-sct .*as of 2025-09-08 \(the download's Last-Modified date; the file states no date\)/,
    );
    assert.match(result.out, /updated epc-sct-inst .*as of 2025-09-08/);
    assert.match(result.out, /updated ofac-sdn .*162 records, as of 2024-05-03 \(the download's Last-Modified date/);
    assert.match(
      (await run(['data', 'list'], env)).out,
      /ofac-sdn\t162 records\tas of 2024-05-03 \(the download's Last-Modified date; the file states no date\)\t/,
    );
    const plane = await loadDataPlane(openSqliteStore(env.MOD97_DATABASE_URL!));
    assert.equal(plane.clearing('00100')?.as_of, '2025-09-02');
    assert.equal(plane.compliance({ bic: 'HAVIGB2L' }).level, 'high');
    assert.deepEqual(plane.sepa('DE', 'COBADEFFXXX').schemes, ['SCT', 'SCT_INST']);
  });

  test('with no Last-Modified, a dateless download is dated by the day of download and says so', async () => {
    const result = await run(['data', 'update', 'ofac-sdn'], {
      ...env,
      MOD97_DATA_URL_OFAC_SDN: env.MOD97_DATA_URL_OFAC_SDN!.replace('/ofac/', '/undated/'),
    });
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /as of 2026-11-21 \(the day of download; neither the file nor the server states a date\)/);
  });

  test('a failed download is reported, exits 1, and leaves the other kinds imported', async () => {
    const result = await run(['data', 'update', 'gleif-bic-lei', 'ofac-sdn'], env);
    assert.equal(result.code, 1);
    assert.match(result.err, /gleif-bic-lei from .*missing\.zip failed: .*404/);
    assert.match(result.out, /updated ofac-sdn/);
  });
});

test('the npm bin shim runs the CLI through tsx', async () => {
  const bin = fileURLToPath(new URL('../../bin/mod97.js', import.meta.url));
  const env = { ...process.env, MOD97_DATABASE_URL: `sqlite:${join(dir, 'bin.db')}` };
  const { stdout } = await promisify(execFile)(process.execPath, [bin, 'data', 'list'], { env });
  assert.match(stdout, /^database: none at .*bin\.db .*nothing imported.*\nbundled:/);
  await assert.rejects(
    promisify(execFile)(process.execPath, [bin, 'nope'], { env }),
    (e: { code?: number; stderr?: string }) =>
      e.code === 2 && e.stderr === 'error: unknown command "nope" (see mod97 --help)\n',
  );
});
