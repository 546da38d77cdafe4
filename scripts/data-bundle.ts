/**
 * `npm run data:bundle [folder]`: regenerates src/data/generated/ from the publishers' files in
 * `folder` (default ../shared/data), then SOURCES.md beside them, and the table of what may ship
 * in docs/data-sources.md (from src/data/bundle/terms.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildBundle, hasBundleInputs, serialise } from '../src/data/bundle/build.ts';
import { GENERATED_DIR, sourcesMarkdown } from '../src/data/bundle/sources.ts';
import { withTerms } from '../src/data/bundle/terms.ts';

const from = resolve(process.argv[2] ?? '../shared/data');
if (!hasBundleInputs(from)) {
  console.error(`${from} lacks the publishers' files (schwifty-bank-registry, iban-to-bic-entrecode, ...)`);
  process.exit(1);
}
const bundle = buildBundle(from);
mkdirSync(GENERATED_DIR, { recursive: true });
const files = { ...serialise(bundle), 'SOURCES.md': sourcesMarkdown(bundle) };
for (const [name, text] of Object.entries(files)) writeFileSync(join(GENERATED_DIR, name), text);
console.log(`wrote ${Object.keys(files).length} files to ${GENERATED_DIR}`);
const doc = new URL('../docs/data-sources.md', import.meta.url);
writeFileSync(doc, withTerms(readFileSync(doc, 'utf8')));
console.log('docs/data-sources.md: the table of what may ship written');
