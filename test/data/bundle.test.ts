import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BUNDLED_SOURCES } from '../../src/data/bundled.ts';
import { BUNDLE_INPUTS, buildBundle, serialise } from '../../src/data/bundle/build.ts';
import { GENERATED_DIR, sourcesMarkdown } from '../../src/data/bundle/sources.ts';
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
  const bnp = plane.bicsForBank('FR', '30004');
  assert.equal(bnp[0], plane.bankForIban('FR', '30004')?.bic, 'the highest-ranked source leads');
  assert.ok(bnp.length > 1 && bnp.every((b) => b.startsWith('BNPAFRPP')), bnp.join());
  assert.deepEqual(plane.bicsForBank('DE', '99999999'), []);
});

test('the coverage table of docs/data-sources.md is what npm run data:coverage writes from the loaded data', async () => {
  const doc = readFileSync(new URL('../../docs/data-sources.md', import.meta.url), 'utf8');
  const plane = await loadDataPlane(openSqliteStore('sqlite::memory:'));
  assert.equal(withCoverage(doc, coverageTable(plane)), doc);
  const covered = plane.coverage().map((c) => c.country);
  assert.ok(covered.length >= 40, covered.join());
});
