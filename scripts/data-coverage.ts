/** `npm run data:coverage`: rewrites the coverage table of docs/data-sources.md from the bundled data. */
import { readFileSync, writeFileSync } from 'node:fs';
import { coverageTable, withCoverage } from '../src/data/coverage.ts';
import { loadDataSnapshot } from '../src/data/index.ts';
import { openSqliteStore } from '../src/store/sqlite/index.ts';

const DOC = new URL('../docs/data-sources.md', import.meta.url);
const plane = await loadDataSnapshot(openSqliteStore('sqlite::memory:'));
writeFileSync(DOC, withCoverage(readFileSync(DOC, 'utf8'), coverageTable(plane)));
console.log('docs/data-sources.md: coverage table written');
