/**
 * Writes the bundled reference data, indexed (src/data/compact.ts), into the folder named on the
 * command line: one folder per edition of the bundled files. scripts/build.mjs runs this as a
 * bundle of its own, placed in dist/ so that the sources' root resolves as at run time.
 *
 * Usage: node <bundle of this file> OUT_DIR
 */
import { join } from 'node:path';
import { bundledEdition } from '../src/data/bundled.ts';
import { writeCompactData } from '../src/data/compact.ts';
import { indexBundled } from '../src/data/snapshot.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: compact-data OUT_DIR');

// The German delta applies from its date on: a load before any date, and one after every date.
const BEFORE_ANY_DATE = 0;
const AFTER_EVERY_DATE = 8.64e15;
for (const now of [BEFORE_ANY_DATE, AFTER_EVERY_DATE]) {
  const { ix, bundled } = indexBundled(now);
  writeCompactData(join(out, bundledEdition(now)), ix, bundled);
}
