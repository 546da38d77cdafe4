/**
 * schwifty's files that the release does not bundle (docs/data-sources.md, "What may ship"):
 * the operator imports them, by file or by `mod97 data update schwifty-registry` from a server
 * (here a local one standing in for raw.githubusercontent.com). An update that names no kind
 * downloads them only once the operator has imported them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../../src/cli/run.ts';
import { SCHWIFTY_IMPORT_FILES } from '../../src/data/bundle/terms.ts';
import { loadDataPlane } from '../../src/data/index.ts';
import { staleDataWarnings } from '../../src/ops/startup.ts';
import { sourcesOf } from '../../src/data/snapshot.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { loopbackServer } from '../support/loopback.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-schwifty-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A small Dutch registry file in schwifty's v1 format: two banks, one with a second BIC row. */
const DUTCH = JSON.stringify([
  {
    bank_code: 'ABNA',
    bic: 'ABNANL2A',
    name: 'ABN AMRO Bank',
    short_name: 'ABN AMRO',
    primary: true,
    country_code: 'NL',
  },
  { bank_code: 'INGB', bic: 'INGBNL2A', name: 'ING Bank', short_name: 'ING', primary: true, country_code: 'NL' },
  { bank_code: 'INGB', bic: 'INGBNL2AXXX', name: 'ING Bank', short_name: 'ING', primary: false, country_code: 'NL' },
]);

async function run(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, () =>
    Date.parse('2026-11-21T12:00:00Z'),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const requested: string[] = [];
const base = await loopbackServer((req, res) => {
  requested.push(req.url ?? '');
  if (req.url === '/registry/generated_nl.json') res.writeHead(200, { 'content-type': 'application/json' }).end(DUTCH);
  else res.writeHead(404).end();
});

test('a schwifty file is imported by name: its country from the name, its publisher in the source', async () => {
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'import.db')}` };
  const file = join(dir, 'generated_nl.json');
  writeFileSync(file, DUTCH);
  const imported = await run(['data', 'import', 'schwifty-registry', file, '--as-of', '2024-11-11'], env);
  assert.equal(imported.code, 0, imported.err);
  assert.match(imported.out, /imported schwifty-nl-generated: 2 records, as of 2024-11-11 .*Betaalvereniging/);
  const plane = await loadDataPlane(openSqliteStore(env.MOD97_DATABASE_URL));
  const abn = plane.bankForIban('NL', 'ABNA');
  assert.equal(abn?.bic, 'ABNANL2AXXX');
  assert.match(abn?.name ?? '', /ABN AMRO/);
  assert.match(abn?.source ?? '', /^schwifty bank registry generated_nl\.json \(Betaalvereniging/);
  assert.equal(abn?.as_of, '2024-11-11');

  const renamed = join(dir, 'dutch-banks.json');
  writeFileSync(renamed, DUTCH);
  const refused = await run(['data', 'import', 'schwifty-registry', renamed, '--as-of', '2024-11-11'], env);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /cannot tell the country: name the file as schwifty does \(generated_xx\.json/);
  const undated = await run(['data', 'import', 'schwifty-registry', file], env);
  assert.equal(undated.code, 1);
  assert.match(undated.err, /pass --as-of YYYY-MM-DD/);
});

test('an imported schwifty file never renames a code a bundled register answers; it adds its BIC', async () => {
  const store = openSqliteStore(`sqlite:${join(dir, 'rank.db')}`);
  const file = join(dir, 'manual_at.json');
  writeFileSync(
    file,
    JSON.stringify([{ bank_code: '12000', bic: 'TESTATWW', name: 'Not the name', primary: true, country_code: 'AT' }]),
  );
  await store.close();
  const env = { MOD97_DATABASE_URL: `sqlite:${join(dir, 'rank.db')}` };
  assert.equal((await run(['data', 'import', 'schwifty-registry', file, '--as-of', '2026-01-01'], env)).code, 0);
  const plane = await loadDataPlane(openSqliteStore(env.MOD97_DATABASE_URL));
  const bank = plane.bankForIban('AT', '12000');
  assert.match(bank?.name ?? '', /UniCredit Bank Austria/i);
  assert.match(bank?.source ?? '', /iban-to-bic/);
  assert.deepEqual(plane.bicsForBank('AT', '12000'), ['BKAUATWWXXX', 'TESTATWWXXX']);
});

test('data update without a kind leaves schwifty-registry alone until it is named, then keeps it fresh', async () => {
  const kinds = ['SIX_BANKMASTER', 'BUNDESBANK_BLZ', 'EPC_REGISTER', 'OFAC_SDN', 'EU_FSF', 'GLEIF_BIC_LEI'];
  const env = {
    MOD97_DATABASE_URL: `sqlite:${join(dir, 'update.db')}`,
    ...Object.fromEntries(kinds.map((k) => [`MOD97_DATA_URL_${k}`, `${base}/missing/${k}`])),
    MOD97_DATA_URL_SCHWIFTY_REGISTRY: `${base}/registry/generated_nl.json`,
  };
  requested.length = 0;
  const all = await run(['data', 'update'], env);
  assert.equal(all.code, 1, 'the other kinds fail here (404)');
  assert.doesNotMatch(all.err, /schwifty/);
  assert.deepEqual(
    requested.filter((u) => u.startsWith('/registry/')),
    [],
    'not downloaded before the operator asks for it',
  );

  const named = await run(['data', 'update', 'schwifty-registry'], env);
  assert.equal(named.code, 0, named.err);
  assert.match(named.out, /updated schwifty-nl-generated from .*generated_nl\.json: 2 records, as of 2026-11-21/);

  requested.length = 0;
  await run(['data', 'update'], env);
  assert.deepEqual(
    requested.filter((u) => u.startsWith('/registry/')),
    ['/registry/generated_nl.json'],
    'once imported, an update of every kind refreshes it',
  );
});

test('the files offered for import are the ones not bundled, from schwifty’s repository, and their age names the command', async () => {
  const { importerFor } = await import('../../src/data/importers/index.ts');
  const urls = importerFor('schwifty-registry').defaultUrls;
  assert.equal(urls.length, SCHWIFTY_IMPORT_FILES.length);
  assert.ok(
    urls.includes('https://raw.githubusercontent.com/mdomke/schwifty/main/schwifty/bank_registry/generated_es.json'),
  );
  assert.ok(!urls.some((u) => /generated_(at|de|si)\./.test(u)), 'bundled files are not imported');
  const now = Date.parse('2026-11-21T12:00:00Z');
  const meta = {
    kind: 'schwifty-nl-generated',
    source: 'schwifty bank registry generated_nl.json',
    asOf: '2024-11-11',
    asOfBasis: null,
    importedAt: now,
    count: 2,
  };
  const [warning] = staleDataWarnings(sourcesOf([meta], now), now);
  assert.match(warning.message, /schwifty bank registry generated_nl\.json \(2024-11-11\)/);
  assert.match(warning.message, /`mod97 data update [a-z -]*schwifty-registry[a-z -]*`/);
});
