/**
 * Files cannot exhaust the process: downloads and archives are bounded per file (512 MiB at
 * most, less where the publisher's files are smaller), a ZIP entry is chosen by name and its
 * CRC-32 checked, and past a bound the import ends with an error that says so. The service's
 * daily update runs in a worker thread: a ZIP bomb on the publisher's side never stops it
 * answering. Generated bombs are small on disk (about 1 KiB per MiB inflated).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../../src/cli/run.ts';
import { download } from '../../src/data/download.ts';
import { ImportError, importerFor } from '../../src/data/importers/index.ts';
import { startProcess } from '../multiprocess/processes.ts';
import { entryOf, zipBomb, zipOf } from '../support/data/zip.ts';
import { loopbackServer } from '../support/loopback.ts';
import { cpuMsOf, residentMib } from '../support/proc.ts';

const MIB = 1 << 20;
const dir = mkdtempSync(join(tmpdir(), 'mod97-bounded-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const CSV = Buffer.from('LEI,BIC\n7LTWFZYICNSX8D621K86,DEUTDEFFXXX\n529900T8BM49AURSDO55,COBADEFFXXX\n');
const gleif = importerFor('gleif-bic-lei');

async function cli(...args: string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const code = await runCli(args, { MOD97_DATABASE_URL: `sqlite:${join(dir, 'cli.db')}` }, io);
  return { code, text: lines.join('\n') };
}

/**
 * A publisher on 127.0.0.1: each path answers with its handler. `sent(path)` is the number of
 * bytes the connection of that path's first request carried, once the client closed it.
 */
async function publisher(
  routes: Record<string, (res: ServerResponse) => void>,
): Promise<{ url: string; sent: (path: string) => Promise<number> }> {
  const closed = new Map<string, (bytes: number) => void>();
  const sent = new Map<string, Promise<number>>(
    Object.keys(routes).map((path) => [path, new Promise((resolve) => closed.set(path, resolve))]),
  );
  const url = await loopbackServer((req, res) => {
    const socket = req.socket;
    res.on('close', () => closed.get(req.url ?? '')?.(socket.bytesWritten));
    const route = routes[req.url ?? ''];
    if (!route) return res.writeHead(404).end();
    route(res);
  });
  return { url, sent: (path) => sent.get(path) ?? Promise.reject(new Error(`no route ${path}`)) };
}

/** Writes 64 KiB chunks, without a Content-Length, for as long as the client reads. */
function endless(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  res.writeHead(200, { 'content-type': 'text/csv' });
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

test('the ZIP entry is chosen by name, not by position', () => {
  const zip = zipOf(entryOf('README.txt', Buffer.from('not the data')), entryOf('BIC-LEI-20261101.csv', CSV));
  const parsed = gleif.parse({ bytes: zip, name: 'download' });
  assert.equal(parsed.records.length, 2);
  assert.equal(parsed.asOf, '2026-11-01');
  const two = zipOf(entryOf('a.csv', CSV), entryOf('b.csv', CSV));
  assert.throws(
    () => gleif.parse({ bytes: two, name: 'download', asOf: '2026-11-01' }),
    /exactly one CSV file .* found 2/,
  );
});

test('a ZIP entry whose CRC-32 does not match is refused as damaged', () => {
  const entry = entryOf('BIC-LEI-20261101.csv', CSV);
  const zip = zipOf({ ...entry, crc: (entry.crc ^ 1) >>> 0 });
  assert.throws(
    () => gleif.parse({ bytes: zip, name: 'download' }),
    (e) => e instanceof ImportError && /fails its CRC-32 or size check/.test(e.message),
  );
});

test('a ZIP bomb is refused whether it declares its size or lies about it, holding no more than the bound', async () => {
  const honest = await zipBomb('bic-lei.csv', 1200);
  assert.ok(honest.length < 2 * MIB, `small on disk (${honest.length} bytes)`);
  assert.throws(
    () => gleif.parse({ bytes: honest, name: 'gleif.zip', asOf: '2026-11-01', maxBytes: 8 * MIB }),
    /inflates to 1200 MiB, past the 8 MiB bound/,
  );

  // it claims 1 MiB and inflates to 1200: inflating stops one byte past the claim
  const liar = await zipBomb('bic-lei.csv', 1200, MIB);
  const before = process.memoryUsage().arrayBuffers;
  assert.throws(
    () => gleif.parse({ bytes: liar, name: 'gleif.zip', asOf: '2026-11-01', maxBytes: 8 * MIB }),
    /inflates past the 1 MiB its archive declares/,
  );
  // Inflating all 1200 MiB would show here, even as garbage not yet collected.
  const grew = process.memoryUsage().arrayBuffers - before;
  assert.ok(grew < 16 * MIB, `memory held: ${grew} bytes`);
});

test('`mod97 data import` of a 1.2 GB GLEIF bomb ends with an error naming the bound, and stores nothing', async () => {
  // declares 30 MiB, under GLEIF's 32 MiB bound, so inflating starts, and stops at 30 MiB
  const path = join(dir, 'bomb.zip');
  writeFileSync(path, await zipBomb('BIC-LEI-20261101.csv', 1200, 30 * MIB));
  const started = performance.now();
  const r = await cli('data', 'import', 'gleif-bic-lei', path);
  const ms = Math.round(performance.now() - started);
  assert.equal(r.code, 1);
  assert.match(r.text, /inflates past the 30 MiB its archive declares .*nothing changed/);
  const honest = join(dir, 'honest-bomb.zip');
  writeFileSync(honest, await zipBomb('BIC-LEI-20261101.csv', 1200));
  const refused = await cli('data', 'import', 'gleif-bic-lei', honest);
  assert.match(refused.text, /inflates to 1200 MiB, past the 32 MiB bound for one file/);
  assert.match((await cli('data', 'list')).text, /imported: none|nothing imported/);
  console.log(
    `# figures: CLI import of a 1200 MiB bomb refused in ${ms} ms, process rss ${Math.round(process.memoryUsage().rss / MIB)} MiB`,
  );
});

test('a local file past its bound is refused before it is read (ten million rows of GLEIF)', async () => {
  const path = join(dir, 'BIC-LEI-20261101.csv');
  writeFileSync(path, Buffer.alloc(33 * MIB, 0x41));
  const r = await cli('data', 'import', 'gleif-bic-lei', path);
  assert.equal(r.code, 1);
  assert.match(r.text, /is 33 MiB, past the 32 MiB bound for one gleif-bic-lei file; nothing changed/);
});

test('an oversized download ends with an error at the bound, with or without Content-Length', async () => {
  const server = await publisher({
    '/endless': endless,
    '/declared': (res) => {
      res.writeHead(200, { 'content-length': String(2048 * MIB) });
      res.write(Buffer.alloc(1024));
    },
  });
  const started = performance.now();
  await assert.rejects(
    download(`${server.url}/endless`, Date.now(), 16 * MIB),
    /larger than the 16 MiB bound for one file; nothing changed/,
  );
  const ms = Math.round(performance.now() - started);
  // The download stopped reading at the bound: the publisher sent no more than that and what the
  // sockets' buffers hold (a few MiB on loopback), not the endless rest. Counted at the publisher,
  // not by this process's memory, which holds the read chunks until a collection runs.
  const sent = await server.sent('/endless');
  assert.ok(sent >= 16 * MIB && sent < 32 * MIB, `the publisher sent ${sent} bytes before the download stopped`);
  await assert.rejects(download(`${server.url}/declared`, Date.now(), 16 * MIB), /larger than the 16 MiB bound/);
  console.log(`# figures: endless download refused at 16 MiB in ${ms} ms, after ${Math.round(sent / MIB)} MiB sent`);

  // the command line, with the kind's own bound (GLEIF: 32 MiB)
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const env = {
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'update.db')}`,
    MOD97_DATA_URL_GLEIF_BIC_LEI: `${server.url}/endless`,
  };
  assert.equal(await runCli(['data', 'update', 'gleif-bic-lei'], env, io), 1);
  assert.match(lines.join('\n'), /gleif-bic-lei from \S+ failed: GET \S+: the file is larger than the 32 MiB bound/);
});

test('the service keeps answering /healthz while its daily update meets a ZIP bomb and an endless download', async () => {
  const bomb = await zipBomb('BIC-LEI-20261101.csv', 1200, 30 * MIB);
  const honest = await zipBomb('sdn.csv', 1200);
  const server = await publisher({
    '/gleif.zip': (res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(bomb),
    '/sdn.zip': (res) => res.writeHead(200).end(honest),
    '/fsf.csv': endless,
  });
  const none = `${server.url}/none`;
  const svc = await startProcess({
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'service.db')}`,
    MOD97_MX_CHECK: 'off',
    MOD97_DATA_REFRESH: 'daily',
    MOD97_DATA_URL_GLEIF_BIC_LEI: `${server.url}/gleif.zip`,
    MOD97_DATA_URL_OFAC_SDN: `${server.url}/sdn.zip`,
    MOD97_DATA_URL_EU_FSF: `${server.url}/fsf.csv`,
    MOD97_DATA_URL_SIX_BANKMASTER: none,
    MOD97_DATA_URL_BUNDESBANK_BLZ: none,
    MOD97_DATA_URL_EPC_REGISTER: none,
  });
  try {
    // Which thread did the work is judged by CPU time, not by how fast /healthz answered: a busy
    // machine delays every answer alike, while work on the main thread shows in its CPU time.
    const pid = svc.child.pid!;
    const mainThread = `/proc/${pid}/task/${pid}/stat`;
    const wholeProcess = `/proc/${pid}/stat`;
    const mainBefore = cpuMsOf(mainThread);
    const allBefore = cpuMsOf(wholeProcess);
    const started = performance.now();
    let slowest = 0;
    let checks = 0;
    type LastUpdate = { ok: boolean; failures: string[] } | null;
    let update: LastUpdate = null;
    while (!update) {
      const t = performance.now();
      const health = await fetch(`${svc.url}/healthz`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(health.status, 200);
      slowest = Math.max(slowest, performance.now() - t);
      checks++;
      const ready = (await (await fetch(`${svc.url}/readyz`)).json()) as { data: { last_update: LastUpdate } };
      update = ready.data.last_update;
      assert.ok(performance.now() - started < 60_000, 'the update ends');
    }
    assert.equal(update.ok, false);
    const failures = update.failures.join('\n');
    assert.match(failures, /gleif-bic-lei from \S+: .*inflates past the 30 MiB its archive declares/);
    assert.match(failures, /eu-fsf from \S+: GET \S+: the file is larger than the 48 MiB bound/);
    assert.match(failures, /ofac-sdn from \S+: /);
    const mainMs = cpuMsOf(mainThread) - mainBefore;
    const allMs = cpuMsOf(wholeProcess) - allBefore;
    // The worker inflated and read 80 MiB; the main thread only answered the checks.
    assert.ok(
      allMs - mainMs > 2 * mainMs,
      `the update's work ran off the main thread: main ${mainMs} ms of ${allMs} ms CPU`,
    );
    assert.equal((await fetch(`${svc.url}/healthz`)).status, 200, 'still up after the update');
    assert.equal(svc.child.exitCode, null);
    console.log(
      `# figures: daily update with bombs done in ${Math.round(performance.now() - started)} ms; /healthz ${checks} checks, slowest ${Math.round(slowest)} ms; main thread ${mainMs} of ${allMs} ms CPU; service peak RSS ${Math.round(residentMib(svc.child.pid!, 'VmHWM'))} MiB`,
    );
  } finally {
    await svc.stop('SIGKILL');
  }
});

test('the daily update refuses a 500 MiB sdn_advanced.xml of one huge value as it streams in: the service stays within 1 GB', async () => {
  // The outside tester's file: within the 512 MiB bound, one <FeatureType> of 500 MiB of text. The
  // service held it whole, and the text again, and grew to 2.5 GB: killed under MemoryMax=1536M.
  const block = Buffer.alloc(MIB, 0x41);
  const server = await publisher({
    '/sdn_advanced.xml': (res) => {
      res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(500 * MIB + 200) });
      res.write(
        '<?xml version="1.0"?>\n<Sanctions><ReferenceValueSets><FeatureTypeValues><FeatureType ID="1001">'.padEnd(100),
      );
      let sent = 0;
      let closed = false;
      res.on('close', () => (closed = true));
      const more = () => {
        while (!closed && sent < 500) {
          sent++;
          if (!res.write(block)) return void res.once('drain', more);
        }
        if (!closed) res.end('</FeatureType></FeatureTypeValues></ReferenceValueSets></Sanctions>'.padEnd(100));
      };
      more();
    },
  });
  const none = `${server.url}/none`;
  const svc = await startProcess({
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'service-xml.db')}`,
    MOD97_MX_CHECK: 'off',
    MOD97_DATA_REFRESH: 'daily',
    MOD97_DATA_URL_OFAC_SDN: `${server.url}/sdn_advanced.xml`,
    MOD97_DATA_URL_GLEIF_BIC_LEI: none,
    MOD97_DATA_URL_EU_FSF: none,
    MOD97_DATA_URL_SIX_BANKMASTER: none,
    MOD97_DATA_URL_BUNDESBANK_BLZ: none,
    MOD97_DATA_URL_EPC_REGISTER: none,
  });
  try {
    const started = performance.now();
    type LastUpdate = { ok: boolean; failures: string[] } | null;
    let update: LastUpdate = null;
    while (!update) {
      const ready = (await (await fetch(`${svc.url}/readyz`)).json()) as { data: { last_update: LastUpdate } };
      update = ready.data.last_update;
      assert.ok(performance.now() - started < 60_000, 'the update ends');
    }
    assert.match(
      update.failures.join('\n'),
      /ofac-sdn from \S+: \S+sdn_advanced\.xml is refused: <FeatureType> holds more than 4096 characters of text, more than any real sdn_advanced\.xml; nothing changed/,
    );
    assert.equal((await fetch(`${svc.url}/healthz`)).status, 200, 'still up after the update');
    const peak = residentMib(svc.child.pid!, 'VmHWM');
    assert.ok(peak < 1000, `service peak RSS ${Math.round(peak)} MiB`);
    // the download stopped at the refusal: the publisher did not send the 500 MiB
    const sent = await server.sent('/sdn_advanced.xml');
    assert.ok(sent < 64 * MIB, `the publisher sent ${sent} bytes`);
    console.log(
      `# figures: 500 MiB one-value sdn_advanced.xml refused by the daily update in ${Math.round(performance.now() - started)} ms, after ${Math.round(sent / MIB)} MiB sent; service peak RSS ${Math.round(peak)} MiB`,
    );
  } finally {
    await svc.stop('SIGKILL');
  }
});

test('OFAC sdn.csv, parsed whole, has a bound of its own below the XML form', () => {
  const csv = Buffer.alloc(33 * MIB, 0x41);
  assert.throws(
    () => importerFor('ofac-sdn').parse({ bytes: csv, name: 'sdn.csv', asOf: '2026-11-01' }),
    /larger than the 32 MiB bound for OFAC sdn\.csv/,
  );
});
