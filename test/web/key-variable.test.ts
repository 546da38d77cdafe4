/**
 * One name for the key variable (MOD97_API_KEY, the one `mod97` reads) in every sample a person
 * copies: the code samples of /openapi.json and /docs, the pages, the documents and READMEs.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../src/root.ts';
import { startService } from '../support/app.ts';

/** Another spelling of the variable: MOD97_KEY, MOD97_APIKEY, MOD97_TOKEN (MOD97_KEY_PEPPER is the server's own). */
const OTHER_NAME = /\bMOD97_(?:KEY(?!_PEPPER)|APIKEY|TOKEN|SECRET)\b/;

function* texts(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !['node_modules', 'dist'].includes(entry.name)) yield* texts(path);
    else if (/\.(md|eta|js|ts|html)$/.test(entry.name)) yield path;
  }
}

test('every document, page, template and README names the key MOD97_API_KEY', () => {
  const files = [
    ...texts(join(ROOT, 'docs')),
    ...texts(join(ROOT, 'src/web')),
    ...texts(join(ROOT, 'src/http')),
    ...texts(join(ROOT, 'clients')),
    join(ROOT, 'README.md'),
  ];
  assert.ok(files.length > 10);
  const offending = files.filter((f) => OTHER_NAME.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
  assert.deepEqual(offending, []);
});

test('the code samples of every operation read the key from MOD97_API_KEY', async () => {
  const svc = await startService();
  const doc = (await svc.call('/openapi.json')).body;
  let keyed = 0;
  for (const methods of Object.values<Record<string, { 'x-codeSamples'?: { lang: string; source: string }[] }>>(
    doc.paths,
  )) {
    for (const op of Object.values(methods)) {
      for (const sample of op['x-codeSamples'] ?? []) {
        assert.doesNotMatch(sample.source, OTHER_NAME, sample.source);
        if (/Bearer/.test(sample.source)) {
          keyed++;
          assert.match(sample.source, /MOD97_API_KEY/, sample.source);
        }
      }
    }
  }
  assert.ok(keyed > 10, `${keyed} samples send a key`);
  const validate = doc.paths['/v1/iban/validate'].post['x-codeSamples'];
  assert.match(validate[1].source, /import \{ Mod97 \} from 'mod97-client'/);
});
