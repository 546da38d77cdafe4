/**
 * The build's compact copy of the bundled data (src/data/compact.ts) answers every lookup as the
 * indexes it was written from, in each edition, and the copy the build wrote is that of the
 * sources as they are now.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { bundledEdition } from '../../src/data/bundled.ts';
import { BUILT_DATA, readCompactData, writeCompactData } from '../../src/data/compact.ts';
import type { IndexReader } from '../../src/data/indexes.ts';
import { indexBundled } from '../../src/data/snapshot.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-compact-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const TABLES = [
  'bankCodes',
  'bics',
  'bic11sByBic8',
  'bankBics',
  'clearing',
  'leis',
  'deCheckMethods',
  'deIbanRules',
] as const satisfies readonly (keyof IndexReader)[];

// A load before the German delta's date, and one after it.
for (const now of [0, 8.64e15]) {
  const edition = bundledEdition(now);
  describe(`the compact bundled data, ${edition}`, () => {
    const indexed = indexBundled(now);
    writeCompactData(join(dir, edition), indexed.ix, indexed.bundled);
    const compact = readCompactData(join(dir, edition));

    test('holds every entry of every index, in the same order, each looked up by its key as the Map does', () => {
      assert.ok(compact);
      for (const name of TABLES) {
        const expected = [...indexed.ix[name]];
        assert.equal(
          JSON.stringify([...compact.ix[name]]),
          JSON.stringify(expected),
          `${name}: the entries as written`,
        );
        for (const [key, value] of expected) assert.deepEqual(compact.ix[name].get(key), value, `${name} ${key}`);
        assert.equal(compact.ix[name].get('XX:not-a-key'), undefined, `${name}: a key it lacks`);
      }
    });

    test('holds the sanctions lists and the clearing source of the load', () => {
      assert.ok(compact);
      assert.deepEqual(compact.bundled, indexed.bundled);
    });

    test('is what the build wrote (npm run build writes dist/data/bundled from these sources)', () => {
      const built = join(BUILT_DATA, edition);
      assert.deepEqual(readdirSync(built).sort(), readdirSync(join(dir, edition)).sort());
      for (const file of readdirSync(built))
        assert.ok(
          readFileSync(join(built, file)).equals(readFileSync(join(dir, edition, file))),
          `${edition}/${file} differs: rebuild`,
        );
    });
  });
}

test('a folder without the compact data reads as none', () => {
  assert.equal(readCompactData(join(dir, 'missing')), null);
});
