/**
 * An import never empties a dataset silently: a file that yields no records, or fewer than half
 * of the dataset it replaces, is refused with both counts and changes nothing; --force takes
 * it, except an empty sanctions list, which is never taken. By hand (`mod97 data import`), by
 * `mod97 data update`, and by the service's daily update; on SQLite and, when
 * MOD97_TEST_POSTGRES_URL is set, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readConfig } from '../../src/config.ts';
import { runCli } from '../../src/cli/run.ts';
import { LiveDataPlane, loadDataPlane } from '../../src/data/index.ts';
import { mib } from '../../src/data/importers/types.ts';
import { openStore } from '../../src/store/index.ts';
import { loopbackServer } from '../support/loopback.ts';
import { pgUrl, throwawaySchema } from '../support/pg.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-guard-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sdnRow = (n: number, name: string, remarks: string) =>
  `${n},"${name}",-0- ,"IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"${remarks}"\r\n`;
const SDN_FULL =
  sdnRow(1, 'BANK MELLAT', 'SWIFT/BIC BKMTIRTH; all offices.') +
  sdnRow(2, 'BANK SEPAH', 'SWIFT/BIC SEPBIRTH.') +
  sdnRow(3, 'BANK SADERAT', 'SWIFT/BIC BSIRIRTH.') +
  sdnRow(4, 'ONERBANK ZAO', 'SWIFT/BIC HNRBBY2X.');
/** A real-looking sdn.csv of which no entry carries a SWIFT/BIC. */
const SDN_EMPTY = sdnRow(9, 'SOME PERSON', 'DOB 1970.') + sdnRow(10, 'OTHER PERSON', '-0- ');
const SDN_SHRUNK = sdnRow(4, 'ONERBANK ZAO', 'SWIFT/BIC HNRBBY2X.');

const gleifRow = (i: number) => `${String(i).padStart(18, '0')}AA,B${String(i).padStart(3, '0')}DEFFXXX`;
const gleif = (n: number) => `LEI,BIC\n${Array.from({ length: n }, (_, i) => gleifRow(i + 1)).join('\n')}\n`;
/** A BIC-LEI file whose rows are all malformed: it parses, into nothing. */
const GLEIF_EMPTY = 'LEI,BIC\nshort,XX\n';

const SIX_HEADER =
  'IID/QR-IID;Valid on;Concatenation;New IID/QR-IID;SIC IID;Headquarters;IID type;QR-IID allocation;Name of bank/institution;Street Name;Building Number;Post Code;Town Name;Country;BIC;SIC participation;RTGS customer payments, CHF;IP customer payments, CHF;euroSIC participation;LSV+/BDD, CHF;LSV+/BDD, EUR;202609011630349';
const SIX_ROW = (iid: string) =>
  `${iid};2025-09-02;N;;00${iid}8;${iid};1;;Bank ${iid};Strasse;1;8000;Zurich;CH;;Y;Y;N;Y;Y;N;`;

const BLZ_LINE =
  '"Bankleitzahl";"Merkmal";"Bezeichnung";"PLZ";"Ort";"Kurzbezeichnung";"PAN";"BIC"\n"37040044";"1";"Commerzbank";"50447";"Koeln";"Commerzbank Koeln";"";"COBADEFFXXX"\n';

function file(name: string, text: string): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}-${name}`);
  writeFileSync(path, text, 'latin1');
  return path;
}

async function cli(databaseUrl: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['data', ...args],
    { MOD97_DATABASE_URL: databaseUrl },
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function flagged(databaseUrl: string, bic: string): Promise<boolean> {
  const store = await openStore(databaseUrl);
  try {
    return (await loadDataPlane(store)).compliance({ bic }).sanctions.matches.length > 0;
  } finally {
    await store.close();
  }
}

async function counts(databaseUrl: string): Promise<Record<string, number>> {
  const store = await openStore(databaseUrl);
  try {
    return Object.fromEntries((await store.listDatasets()).map((d) => [d.kind, d.count]));
  } finally {
    await store.close();
  }
}

/** A publisher on 127.0.0.1 serving one body per path. */
function publisher(files: Record<string, string>): Promise<string> {
  return loopbackServer((req, res) => {
    const body = files[req.url ?? ''];
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/csv' }).end(Buffer.from(body, 'latin1'));
  });
}

function suite(engine: string, databaseUrl: () => string, skip: string | false) {
  describe(engine, { skip }, () => {
    test('an OFAC file without one SWIFT/BIC is refused, on a fresh install and over an import; Bank Mellat stays listed', async () => {
      const db = databaseUrl();
      assert.equal(await flagged(db, 'BKMTIRTH'), true, 'the bundled list names Bank Mellat');
      const fresh = await cli(db, 'import', 'ofac-sdn', file('sdn.csv', SDN_EMPTY), '--as-of', '2026-11-20');
      assert.equal(fresh.code, 1);
      assert.match(
        fresh.err,
        /refused: this ofac-sdn file yields 0 records where the bundled dataset \(OFAC SDN list \(sdn\.csv\), as of 2024-05-03\) has 162/,
      );
      assert.equal(await flagged(db, 'BKMTIRTH'), true, 'still answered as listed');

      assert.equal(
        (await cli(db, 'import', 'ofac-sdn', file('sdn.csv', SDN_FULL), '--as-of', '2026-11-20', '--force')).code,
        0,
      );
      for (const force of [[], ['--force']]) {
        const empty = await cli(
          db,
          'import',
          'ofac-sdn',
          file('sdn.csv', SDN_EMPTY),
          '--as-of',
          '2026-11-21',
          ...force,
        );
        assert.equal(empty.code, 1, `refused ${force.join(' ')}`);
        assert.match(
          empty.err,
          /yields 0 records where the live dataset has 4; a sanctions list is never replaced by an empty one/,
        );
      }
      assert.equal(await flagged(db, 'BKMTIRTH'), true);
      assert.deepEqual((await counts(db))['ofac-sdn'], 4);
    });

    test('a first OFAC import is compared with the bundled list: 10 records for 162 are refused, naming both; --force takes it', async () => {
      const db = databaseUrl();
      const ten = Array.from({ length: 10 }, (_, i) =>
        sdnRow(100 + i, `BANK ${i}`, `SWIFT/BIC TSTB${String.fromCharCode(65 + i)}X2X.`),
      ).join('');
      const first = await cli(db, 'import', 'ofac-sdn', file('sdn.csv', ten), '--as-of', '2026-11-20');
      assert.equal(first.code, 1, first.out);
      assert.match(first.err, /yields 10 records where the bundled dataset .* has 162; nothing changed\. .*--force/);
      assert.equal((await counts(db))['ofac-sdn'], undefined, 'nothing imported');
      assert.equal(await flagged(db, 'BKMTIRTH'), true, 'the bundled list still answers');
      const forced = await cli(db, 'import', 'ofac-sdn', file('sdn.csv', ten), '--as-of', '2026-11-20', '--force');
      assert.equal(forced.code, 0, forced.err);
      assert.equal((await counts(db))['ofac-sdn'], 10);
    });

    test('a first SIX or Bundesbank import is compared with the bundled table it replaces whole; a row cut off is refused even with --force', async () => {
      const db = databaseUrl();
      const rows = Array.from({ length: 10 }, (_, i) => SIX_ROW(String(9100 + i))).join('\n');
      const few = await cli(
        db,
        'import',
        'six-bankmaster',
        file('six.csv', `${SIX_HEADER}\n${rows}\n`),
        '--as-of',
        '2026-11-20',
      );
      assert.equal(few.code, 1, few.out);
      assert.match(
        few.err,
        /yields 10 records where the bundled dataset \(SIX BankMaster V3 .*\) has \d{3,}; nothing changed/,
      );
      assert.equal((await counts(db))['six-bankmaster'], undefined, 'the bundled Swiss table still answers');
      const blz = await cli(db, 'import', 'bundesbank-blz', file('blz.csv', BLZ_LINE), '--as-of', '2026-11-20');
      assert.match(blz.err, /yields 1 record where the bundled dataset \(bankdata-germany.*\) has \d{4,}/);
      // a download that stopped mid-row: its half row would be stored as if whole
      const cut = await cli(
        db,
        'import',
        'six-bankmaster',
        file('six.csv', `${SIX_HEADER}\n${rows}\n9200;2025-09-02;N;;0092`),
        '--as-of',
        '2026-11-20',
        '--force',
      );
      assert.equal(cut.code, 1);
      assert.match(
        cut.err,
        /ends in the middle of a row \(its last line has 5 fields, the line before it 22, and no line break\): the file was cut off; nothing changed/,
      );
    });

    test('an OFAC file with fewer than half the records is refused; --force takes it', async () => {
      const db = databaseUrl();
      assert.equal(
        (await cli(db, 'import', 'ofac-sdn', file('sdn.csv', SDN_FULL), '--as-of', '2026-11-20', '--force')).code,
        0,
      );
      const shrunk = await cli(db, 'import', 'ofac-sdn', file('sdn.csv', SDN_SHRUNK), '--as-of', '2026-11-21');
      assert.equal(shrunk.code, 1);
      assert.match(shrunk.err, /yields 1 record where the live dataset has 4; nothing changed\. .*--force/);
      assert.equal(await flagged(db, 'BKMTIRTH'), true, 'the live list is unchanged');

      const forced = await cli(
        db,
        'import',
        'ofac-sdn',
        file('sdn.csv', SDN_SHRUNK),
        '--as-of',
        '2026-11-21',
        '--force',
      );
      assert.equal(forced.code, 0, forced.err);
      assert.match(forced.out, /imported ofac-sdn: 1 record/);
      assert.equal(await flagged(db, 'BKMTIRTH'), false, '--force took the smaller list');
      assert.equal(await flagged(db, 'HNRBBY2X'), true);
    });

    test('the same rule holds for GLEIF: empty or halved refused, --force takes both', async () => {
      const db = databaseUrl();
      assert.equal((await cli(db, 'import', 'gleif-bic-lei', file('BIC-LEI-20261101.csv', gleif(10)))).code, 0);
      const empty = await cli(db, 'import', 'gleif-bic-lei', file('BIC-LEI-20261102.csv', GLEIF_EMPTY));
      assert.match(empty.err, /refused: this gleif-bic-lei file yields 0 records where the live dataset has 10/);
      const halved = await cli(db, 'import', 'gleif-bic-lei', file('BIC-LEI-20261102.csv', gleif(4)));
      assert.match(halved.err, /yields 4 records where the live dataset has 10/);
      assert.equal((await counts(db))['gleif-bic-lei'], 10);
      const half = await cli(db, 'import', 'gleif-bic-lei', file('BIC-LEI-20261103.csv', gleif(5)));
      assert.equal(half.code, 0, 'exactly half is not fewer than half');
      const forced = await cli(db, 'import', 'gleif-bic-lei', file('BIC-LEI-20261104.csv', GLEIF_EMPTY), '--force');
      assert.equal(forced.code, 0, forced.err);
      assert.equal((await counts(db))['gleif-bic-lei'], 0);
    });

    test('`mod97 data update` and the daily update refuse a shrunken download the same way', async () => {
      const db = databaseUrl();
      assert.equal(
        (await cli(db, 'import', 'ofac-sdn', file('sdn.csv', SDN_FULL), '--as-of', '2026-11-20', '--force')).code,
        0,
      );
      const base = await publisher({ '/sdn.csv': SDN_SHRUNK, '/empty.csv': SDN_EMPTY });
      const out: string[] = [];
      const env = { MOD97_DATABASE_URL: db, MOD97_DATA_URL_OFAC_SDN: `${base}/sdn.csv` };
      const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
      assert.equal(await runCli(['data', 'update', 'ofac-sdn'], env, io), 1);
      assert.match(
        out.join('\n'),
        /ofac-sdn from \S+ failed: refused: this ofac-sdn file yields 1 record where the live dataset has 4/,
      );
      assert.equal(await flagged(db, 'BKMTIRTH'), true);

      const store = await openStore(db);
      try {
        const plane = await LiveDataPlane.load(store);
        const lines: string[] = [];
        const log = { info: (_: object, m: string) => lines.push(m), warn: (_: object, m: string) => lines.push(m) };
        const only = Object.fromEntries(
          ['SIX_BANKMASTER', 'BUNDESBANK_BLZ', 'EPC_REGISTER', 'EU_FSF', 'GLEIF_BIC_LEI'].map((k) => [
            `MOD97_DATA_URL_${k}`,
            `${base}/none`,
          ]),
        );
        const report = await plane.runUpdate(
          readConfig({ ...only, MOD97_DATA_URL_OFAC_SDN: `${base}/empty.csv` }).dataUrls,
          log,
        );
        assert.ok(report.failures.some((f) => /ofac-sdn .*yields 0 records where the live dataset has 4/.test(f)));
        assert.equal(plane.compliance({ bic: 'BKMTIRTH' }).sanctions.matches.length, 1);
        assert.equal(plane.status().last_update?.ok, false);
      } finally {
        await store.close();
      }
      out.length = 0;
      assert.equal(await runCli(['data', 'update', 'ofac-sdn', '--force'], env, io), 0, out.join('\n'));
      assert.equal(await flagged(db, 'BKMTIRTH'), false);
    });
  });
}

let n = 0;
suite('SQLite', () => `sqlite:${join(dir, `guard-${++n}.db`)}`, false);
suite('PostgreSQL', () => throwawaySchema('mod97_guard').url, !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set');

test('a file with no end (a device, a pipe) is read only up to the bound for its kind, then refused', async () => {
  const r = await cli(
    `sqlite:${join(dir, 'endless.db')}`,
    'import',
    'six-bankmaster',
    '/dev/zero',
    '--as-of',
    '2026-11-20',
  );
  assert.equal(r.code, 1);
  assert.match(r.err, /\/dev\/zero goes on past the 32 MiB bound for one six-bankmaster file .*; nothing changed/);
});

test('a GLEIF file wider than 64 columns is refused like every other CSV kind', async () => {
  const columns = Array.from({ length: 98 }, (_, i) => `c${i}`).join(',');
  const wide = `LEI,BIC,${columns}\n${gleifRow(1)}${',x'.repeat(98)}\n`;
  const r = await cli(`sqlite:${join(dir, 'wide.db')}`, 'import', 'gleif-bic-lei', file('BIC-LEI-20261101.csv', wide));
  assert.equal(r.code, 1);
  assert.match(r.err, /the header has 100 columns, more than the 64 a file of this kind may have; nothing changed/);
});

test('a size under a tenth of a MiB is said in bytes, not as "0 MiB" (a ZIP entry declaring 1,000 bytes)', () => {
  assert.equal(mib(1000), '1000 bytes');
  assert.equal(mib(32 * 1048576), '32 MiB');
});
