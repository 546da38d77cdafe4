/**
 * The Python client's types (clients/python): mypy --strict accepts the package, its example, its
 * tests and the Python samples of /docs (which then run against the service), and refuses a
 * program that misreads an answer. Debian's python3 with python3-mypy runs it (.ci/run installs
 * it); without it the tests skip, saying so.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { missing, PACKAGE, PYTHON, run } from '../support/python.ts';

describe("the Python client's types", { skip: missing }, () => {
  describe('mypy --strict', () => {
    let cache: string;
    before(() => {
      cache = mkdtempSync(join(tmpdir(), 'mod97-mypy-'));
    });
    after(() => rmSync(cache, { recursive: true, force: true }));
    const mypy = (...files: string[]) =>
      run(PYTHON, ['-m', 'mypy', '--strict', '--cache-dir', cache, ...files], {
        cwd: PACKAGE,
        env: { MYPYPATH: `${join(PACKAGE, 'src')}:${join(PACKAGE, 'tests')}` },
      });

    test('accepts the package, its example and its tests', async () => {
      const result = await mypy('src/mod97', 'examples', 'tests');
      assert.equal(result.code, 0, result.out);
      assert.match(result.out, /^Success: no issues found in \d+ source files/m);
    });

    test('refuses a program that misreads an answer or misses a refusal', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mod97-consumer-'));
      after(() => rmSync(dir, { recursive: true, force: true }));
      const consumer = join(dir, 'consumer.py');
      writeFileSync(
        consumer,
        [
          'from mod97 import Mod97, Mod97Error',
          'with Mod97() as mod97:',
          '    answer = mod97.validate("DE89370400440532013000")',
          '    print(answer["valdi"])',
          '    print(answer["bank"]["bic"])',
          '    mod97.batch([42])',
          'def status(error: Mod97Error) -> str:',
          '    return error.status',
          '',
        ].join('\n'),
      );
      const result = await mypy(consumer);
      assert.equal(result.code, 1, result.out);
      assert.match(result.out, /consumer\.py:4: error: TypedDict "Validation" has no key "valdi"/);
      assert.match(
        result.out,
        /consumer\.py:5: error: Value of type "(Optional\[BankByCode\]|BankByCode \| None)" is not indexable/,
      );
      assert.match(result.out, /consumer\.py:6: error: List item 0 has incompatible type "int"/);
      assert.match(result.out, /consumer\.py:8: error: Incompatible return value type \(got "int", expected "str"\)/);
    });

    test('the Python samples of /docs pass mypy --strict and run against the service', async () => {
      const svc = await startService();
      const doc = (await svc.call('/openapi.json')).body as {
        paths: Record<
          string,
          Record<string, { operationId: string; 'x-codeSamples': { lang: string; source: string }[] }>
        >;
      };
      const dir = mkdtempSync(join(tmpdir(), 'mod97-samples-'));
      after(() => rmSync(dir, { recursive: true, force: true }));
      const samples = Object.values(doc.paths)
        .flatMap((methods) => Object.values(methods))
        .map((op) => ({
          id: op.operationId,
          source: op['x-codeSamples'].find((s) => s.lang === 'Python')?.source ?? '',
        }))
        .filter((sample) => sample.source.startsWith('from mod97 import Mod97'));
      assert.ok(samples.length >= 15, `client samples: ${samples.map((s) => s.id)}`);
      for (const sample of samples) writeFileSync(join(dir, `${sample.id}.py`), sample.source);
      const checked = await mypy(...samples.map((s) => join(dir, `${s.id}.py`)));
      assert.equal(checked.code, 0, checked.out);
      // Each runs with a key of its own; the claim sample mails a code, which needs a mail server.
      let n = 0;
      for (const sample of samples.filter((s) => s.id !== 'claimKey')) {
        const key = await svc.newKey(`127.0.36.${++n}`);
        const ran = await run(PYTHON, [join(dir, `${sample.id}.py`)], {
          env: { PYTHONPATH: join(PACKAGE, 'src'), MOD97_API_KEY: key },
        });
        assert.equal(ran.code, 0, `${sample.id}:\n${sample.source}\n${ran.out}`);
        assert.match(ran.out, /^\{'/, `${sample.id} prints its answer: ${ran.out}`);
      }
    });
  });
});
