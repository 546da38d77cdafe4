/**
 * A download address's secrets (a user and password, a signed query) are used, never shown:
 * wherever a MOD97_DATA_URL_* address appears (the log, /readyz's `failures`, `mod97 data`'s
 * lines) it has no userinfo and no query; the userinfo goes out as `Authorization: Basic`
 * (docs/security.md, docs/operations.md).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { readConfig } from '../../src/config.ts';
import { runCli } from '../../src/cli/run.ts';
import { LiveDataPlane } from '../../src/data/index.ts';
import { shownUrl } from '../../src/data/download.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';

const SIX_HEADER =
  'IID/QR-IID;Valid on;Concatenation;New IID/QR-IID;SIC IID;Headquarters;IID type;QR-IID allocation;Name of bank/institution;Street Name;Building Number;Post Code;Town Name;Country;BIC;SIC participation;RTGS customer payments, CHF;IP customer payments, CHF;euroSIC participation;LSV+/BDD, CHF;LSV+/BDD, EUR;202611201630349';
const SIX_FILE = `${SIX_HEADER}\r\n99123;2026-11-21;N;;0991238;99123;1;;Neue Testbank AG;Strasse;1;8000;Zürich;CH;NEUECHZZXXX;Y;Y;Y;Y;Y;N\r\n`;
const SECRETS = ['Pw0rd', 'S1GNATURE', 'mirror-user'];

/** A mirror that serves the SIX file to `mirror-user:Pw0rd` alone; everything else is 404. */
const seen: IncomingHttpHeaders[] = [];
let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    const basic = `Basic ${Buffer.from('mirror-user:Pw0rd').toString('base64')}`;
    if (req.url === '/bm.csv' && req.headers.authorization === basic) return void res.end(SIX_FILE);
    res.statusCode = req.url === '/bm.csv' ? 401 : 404;
    res.end();
  });
  for (let port = 5700 + Math.floor(Math.random() * 50); ; port++) {
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) {
      base = `http://127.0.0.1:${port}`;
      break;
    }
    if (port >= 5799) throw new Error('no free port in 5700-5799');
  }
});
after(() => server.close());

/** Every kind downloaded from the mirror (none from the internet), two of them with secrets. */
const env = () => ({
  MOD97_DATA_URL_SIX_BANKMASTER: `http://mirror-user:Pw0rd@${base.slice('http://'.length)}/bm.csv`,
  MOD97_DATA_URL_BUNDESBANK_BLZ: `${base}/blz.txt?X-Amz-Signature=S1GNATURE&X-Amz-Expires=60`,
  MOD97_DATA_URL_EPC_REGISTER: `http://mirror-user:Pw0rd@127.0.0.1:9/epc.csv?X-Amz-Signature=S1GNATURE`,
  MOD97_DATA_URL_OFAC_SDN: `${base}/sdn.xml`,
  MOD97_DATA_URL_EU_FSF: `${base}/fsf.csv`,
  MOD97_DATA_URL_GLEIF_BIC_LEI: `${base}/bic-lei.csv`,
});

const noSecret = (text: string) => {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} shown in: ${text}`);
};

test('shownUrl drops the userinfo and the query, keeps the rest', () => {
  assert.equal(shownUrl('https://user:Pw@host/bm.csv'), 'https://host/bm.csv');
  assert.equal(shownUrl('https://host:8443/a/bm.csv?X-Amz-Signature=abc#x'), 'https://host:8443/a/bm.csv?…');
  assert.equal(shownUrl('https://host/bm.csv'), 'https://host/bm.csv');
  assert.equal(shownUrl('not a url user:pw@x?sig=1'), 'not a url user:pw@x?…');
});

test('a scheduled update: the log and /readyz failures name the addresses without user, password or query', async () => {
  const store = openSqliteStore('sqlite::memory:');
  const plane = await LiveDataPlane.load(store);
  const lines: string[] = [];
  const log = { info: (_: object, m: string) => lines.push(m), warn: (_: object, m: string) => lines.push(m) };
  const report = await plane.runUpdate(readConfig(env()).dataUrls, log);
  const failures = plane.status().last_update?.failures ?? [];
  assert.equal(failures.length, 6, failures.join('\n'));
  for (const text of [...lines, ...failures, JSON.stringify(plane.status())]) noSecret(text);
  const port = base.split(':')[2];
  // the mirror's file is only halved-guarded (no --force here): the download itself succeeded
  assert.ok(
    failures.some((f) => f.startsWith(`six-bankmaster from http://127.0.0.1:${port}/bm.csv: `)),
    failures.join('\n'),
  );
  assert.ok(failures.some((f) => f.startsWith(`bundesbank-blz from http://127.0.0.1:${port}/blz.txt?…: `)));
  assert.ok(failures.some((f) => f.startsWith('epc-register from http://127.0.0.1:9/epc.csv?…: ')));
  assert.equal(report.updated.length, 0);
  await store.close();
});

test('mod97 data update: a user and password in the address are sent as Basic auth, and never printed', async () => {
  const out: string[] = [];
  const err: string[] = [];
  seen.length = 0;
  const code = await runCli(
    ['data', 'update', 'six-bankmaster', 'bundesbank-blz', '--force'],
    { MOD97_DATABASE_URL: 'sqlite::memory:', ...env() },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  const port = base.split(':')[2];
  assert.equal(code, 1, [...out, ...err].join('\n'));
  assert.match(
    out.join('\n'),
    new RegExp(`^updated six-bankmaster from http://127\\.0\\.0\\.1:${port}/bm\\.csv: 1 records`),
  );
  assert.match(
    err.join('\n'),
    new RegExp(`^bundesbank-blz from http://127\\.0\\.0\\.1:${port}/blz\\.txt\\?… failed: `),
  );
  for (const line of [...out, ...err]) noSecret(line);
  assert.ok(seen.some((h) => h.authorization?.startsWith('Basic ')));
});
