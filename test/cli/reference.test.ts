/** `mod97 reference validate|create` as a child process against the real service. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';
import { mod97 } from './run.ts';

const svc = await startService();

test('validate: one line per reference (print form, type, verdict, error, suggestions); exit 1 when one is invalid', async () => {
  const env = { MOD97_URL: svc.url, MOD97_API_KEY: await svc.newKey('127.0.37.1') };
  const ok = await mod97(['reference', 'validate', 'rf18539007547034', '+++090/9337/55493+++'], env);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, 'RF18 5390 0754 7034\trf\tvalid\n+++090/9337/55493+++\tbe_ogm\tvalid\n');
  const finnish = await mod97(['reference', 'validate', '--country', 'FI', '1234561'], env);
  assert.equal(finnish.stdout, '12 34561\tfi\tvalid\n');
  const typo = await mod97(['reference', 'validate', 'RF19 5390 0754 7034'], env);
  assert.equal(typo.code, 1);
  assert.match(
    typo.stdout,
    /^RF19 5390 0754 7034\trf\tinvalid\treference_check_failed: .*\tdid you mean RF18539007547034 or /,
  );
  const json = await mod97(['reference', 'validate', '--json', '--type', 'se_ocr', '1700012'], env);
  assert.deepEqual([json.code, JSON.parse(json.stdout).type, JSON.parse(json.stdout).valid], [0, 'se_ocr', true]);
});

test('create: prints the print form and the electronic form; a refusal is exit 2 with the service’s words', async () => {
  const env = { MOD97_URL: svc.url, MOD97_API_KEY: await svc.newKey('127.0.37.2') };
  const made = await mod97(['reference', 'create', '--type', 'qrr', '21000000000313947143000901'], env);
  assert.deepEqual([made.code, made.stdout], [0, '21 00000 00003 13947 14300 09017\t210000000003139471430009017\n']);
  const kid = await mod97(['reference', 'create', '--type', 'no_kid', '--algorithm', 'mod11', '6'], env);
  assert.equal(kid.code, 2);
  assert.match(kid.stderr, /reference_not_creatable/);
});

test('usage: wrong action, unknown type, no key', async () => {
  const env = { MOD97_URL: svc.url, MOD97_API_KEY: await svc.newKey('127.0.37.3') };
  const action = await mod97(['reference', 'check', 'RF18539007547034'], env);
  assert.equal(action.code, 2);
  assert.match(action.stderr, /mod97 reference --help/);
  const type = await mod97(['reference', 'create', '--type', 'iso', '123'], env);
  assert.equal(type.code, 2);
  const noKey = await mod97(['reference', 'validate', 'RF18539007547034'], { MOD97_URL: svc.url });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /MOD97_API_KEY/);
  const help = await mod97(['reference', '--help'], env);
  assert.deepEqual([help.code, help.stdout.startsWith('usage: mod97 reference validate')], [0, true]);
});
