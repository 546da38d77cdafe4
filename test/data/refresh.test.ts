/**
 * Imported data reaches every running process without a restart: a real mod97 process answers
 * from a dataset that another process (here the test, through the CLI) imports into the store
 * they share. PostgreSQL runs when MOD97_TEST_POSTGRES_URL is set; SQLite always.
 */
import { pgAdmin } from '../support/pg.ts';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readConfig } from '../../src/config.ts';
import { runCli } from '../../src/cli/run.ts';
import { LiveDataPlane } from '../../src/data/index.ts';
import { LAST_UPDATE_SETTING } from '../../src/data/live.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import type { DatasetStore } from '../../src/store/types.ts';
import { keyedHash, newSecret } from '../../src/keys/secret.ts';
import { openStore } from '../../src/store/index.ts';
import { startProcess } from '../multiprocess/processes.ts';
import { newKeyRow } from '../store/contract.ts';
import { startService } from '../support/app.ts';
import { call } from '../support/http.ts';

const pgUrl = process.env.MOD97_TEST_POSTGRES_URL;
const dir = mkdtempSync(join(tmpdir(), 'mod97-refresh-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SIX_HEADER =
  'IID/QR-IID;Valid on;Concatenation;New IID/QR-IID;SIC IID;Headquarters;IID type;QR-IID allocation;Name of bank/institution;Street Name;Building Number;Post Code;Town Name;Country;BIC;SIC participation;RTGS customer payments, CHF;IP customer payments, CHF;euroSIC participation;LSV+/BDD, CHF;LSV+/BDD, EUR;202611201630349';
const SIX_FILE = `${SIX_HEADER}\r\n99123;2026-11-21;N;;0991238;99123;1;;Neue Testbank AG;Strasse;1;8000;Zürich;CH;NEUECHZZXXX;Y;Y;Y;Y;Y;N\r\n`;

const PEPPER = randomBytes(32).toString('hex');

async function importAndAwait(databaseUrl: string): Promise<void> {
  const server = await startProcess({
    MOD97_DATABASE_URL: databaseUrl,
    MOD97_MX_CHECK: 'off',
    MOD97_KEY_PEPPER: PEPPER,
  });
  const store = await openStore(databaseUrl);
  try {
    const { secret } = newSecret();
    await store.insertKey(newKeyRow({ keyHash: keyedHash(PEPPER, secret), tier: 'pro', limit: 10_000 }));
    const get = (path: string) => call(server.url, path, { key: secret });
    const before = await get('/v1/ch/clearing/99123');
    assert.equal(before.status, 404, 'the bundled SIX file does not know the IID');
    const readyBefore = await call(server.url, '/readyz');

    const file = join(dir, `bankmaster_V3-${randomBytes(4).toString('hex')}.csv`);
    writeFileSync(file, SIX_FILE);
    const out: string[] = [];
    const code = await runCli(
      // one IID where the bundled table has a thousand: --force takes it
      ['data', 'import', 'six-bankmaster', file, '--force'],
      { MOD97_DATABASE_URL: databaseUrl },
      {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
      },
    );
    assert.equal(code, 0, out.join('\n'));

    const started = Date.now();
    let answer = await get('/v1/ch/clearing/99123');
    while (answer.status !== 200 && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 250));
      answer = await get('/v1/ch/clearing/99123');
    }
    assert.equal(answer.status, 200, 'answered within 10 seconds of the import, without a restart');
    assert.deepEqual([answer.body.name, answer.body.as_of], ['Neue Testbank AG', '2026-11-21']);
    // the import replaced the bundled table whole: the SNB of the bundled file is gone
    assert.equal((await get('/v1/ch/clearing/100')).status, 404);
    const ready = await call(server.url, '/readyz');
    assert.notEqual(ready.body.data_version, readyBefore.body.data_version);
    assert.equal(ready.body.data.data_version, ready.body.data_version);
    assert.equal(ready.body.data.last_check.ok, true);
  } finally {
    await server.stop('SIGKILL');
    await store.close();
  }
}

describe('an import is answered by a running process without a restart', () => {
  test('SQLite: the CLI imports into the file a running service reads', async () => {
    await importAndAwait(`sqlite:${join(dir, 'shared.db')}`);
  });

  test('PostgreSQL: the CLI imports into the schema a running service reads', {
    skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
  }, async () => {
    const schema = `mod97_refresh_${randomBytes(6).toString('hex')}`;
    try {
      await importAndAwait(`${pgUrl}${pgUrl?.includes('?') ? '&' : '?'}schema=${schema}`);
    } finally {
      const admin = await pgAdmin(pgUrl!);
      await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});

const quietLog = () => {
  const lines: string[] = [];
  return { lines, info: (_: object, m: string) => lines.push(m), warn: (_: object, m: string) => lines.push(m) };
};

test('a failed look at the store keeps the loaded data and shows the error in the status', async () => {
  const store = openSqliteStore('sqlite::memory:');
  let down = false;
  const flaky: DatasetStore = {
    putDataset: (meta, records) => store.putDataset(meta, records),
    getDataset: (kind) => store.getDataset(kind),
    listDatasets: async () => {
      if (down) throw new Error('store unreachable');
      return store.listDatasets();
    },
  };
  const plane = await LiveDataPlane.load(flaky);
  const version = plane.dataVersion();
  down = true;
  await assert.rejects(plane.refresh(), /store unreachable/);
  assert.equal(plane.dataVersion(), version);
  assert.deepEqual([plane.status().last_check?.ok, plane.status().last_check?.error], [false, 'store unreachable']);
  assert.equal(plane.bankForIban('DE', '37040044')?.bic, 'COBADEFFXXX', 'the loaded data still answers');
});

test('a refresh asked while a reload runs reads the store again after it, so it sees what changed meanwhile', async () => {
  const store = openSqliteStore('sqlite::memory:');
  let hold: Promise<void> | null = null;
  const seen: number[] = [];
  const slow: DatasetStore = {
    putDataset: (meta, records) => store.putDataset(meta, records),
    getDataset: (kind) => store.getDataset(kind),
    listDatasets: async () => {
      const list = await store.listDatasets();
      if (hold) await hold;
      seen.push(list.length);
      return list;
    },
  };
  const plane = await LiveDataPlane.load(slow);
  const before = (await store.listDatasets()).length;
  let release!: () => void;
  hold = new Promise((resolve) => (release = resolve));
  const running = plane.refresh(); // the poll's reload: it has read the store and is still busy
  const meta = { kind: 'test', source: 'test', asOf: '2026-11-01', asOfBasis: null, importedAt: 1, count: 1 };
  await store.putDataset(meta, [{ bic: 'TESTDEFFXXX' }]); // an import, after that read
  const asked = plane.refresh(); // the importer's own refresh
  hold = null;
  release();
  await running;
  await asked;
  assert.equal(seen.at(-1), before + 1, 'the refresh asked after the import read the store after it');
});

test('a scheduled update whose downloads fail changes nothing, and says so in the status', async () => {
  const store = openSqliteStore('sqlite::memory:');
  const plane = await LiveDataPlane.load(store);
  const version = plane.dataVersion();
  // a port nothing listens on: each download is refused at once
  const env = Object.fromEntries(
    ['SIX_BANKMASTER', 'BUNDESBANK_BLZ', 'EPC_REGISTER', 'OFAC_SDN', 'EU_FSF', 'GLEIF_BIC_LEI'].map((k) => [
      `MOD97_DATA_URL_${k}`,
      `http://127.0.0.1:9/${k.toLowerCase()}`,
    ]),
  );
  const log = quietLog();
  const report = await plane.runUpdate(readConfig(env).dataUrls, log);
  assert.equal(report.updated.length, 0);
  assert.equal(report.failures.length, 6);
  assert.equal(plane.dataVersion(), version);
  assert.deepEqual(await store.listDatasets(), []);
  const status = plane.status();
  assert.equal(status.last_update?.ok, false);
  assert.match(status.last_update?.failures[0] ?? '', /six-bankmaster from http:\/\/127\.0\.0\.1:9/);
  assert.ok(log.lines.some((l) => /data update failed, nothing changed/.test(l)));
});

test('MOD97_DATA_REFRESH=daily runs the update in the service; its failures show in /readyz and change nothing', async () => {
  const env = {
    MOD97_DATA_REFRESH: 'daily',
    ...Object.fromEntries(
      ['SIX_BANKMASTER', 'BUNDESBANK_BLZ', 'EPC_REGISTER', 'OFAC_SDN', 'EU_FSF', 'GLEIF_BIC_LEI'].map((k) => [
        `MOD97_DATA_URL_${k}`,
        `http://127.0.0.1:9/${k.toLowerCase()}`,
      ]),
    ),
  };
  const svc = await startService({ env });
  let ready = await svc.call('/readyz');
  for (let i = 0; i < 100 && !ready.body.data.last_update; i++) {
    await new Promise((r) => setTimeout(r, 50));
    ready = await svc.call('/readyz');
  }
  assert.equal(ready.status, 200, 'a failed update leaves the service ready on the data it has');
  assert.equal(ready.body.data.refresh, 'daily');
  assert.equal(ready.body.data.last_update.ok, false);
  assert.equal(ready.body.data.last_update.failures.length, 6);
  assert.deepEqual(await svc.services.store.listDatasets(), []);
  assert.ok(svc.logs.some((l) => /data update failed, nothing changed/.test(l)));
  // one run a day: the mark in the store keeps a second process from running it again
  assert.ok(Number(await svc.services.store.getSetting(LAST_UPDATE_SETTING)) > 0);
});

test('MOD97_DATA_REFRESH other than daily or off stops start-up with invalid_config', async () => {
  await assert.rejects(startService({ env: { MOD97_DATA_REFRESH: 'hourly' } }), /MOD97_DATA_REFRESH/);
});
