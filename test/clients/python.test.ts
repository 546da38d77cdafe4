/**
 * The Python client (clients/python) against the real service: its pytest suite on SQLite and, for
 * the tests marked `engines` (quota, 402, idempotent replay), on PostgreSQL; mypy --strict on the
 * package, its example and its tests; and `pip install` into a fresh virtual environment, offline,
 * whose Python then runs the example. Debian's python3 with python3-httpx, -pytest and -mypy runs
 * it (.ci/run installs them); without them the tests skip, saying so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { STATUS } from '../../src/http/errors.ts';
import { startService, type TestService } from '../support/app.ts';
import { pgUrl, throwawaySchema } from '../support/pg.ts';

const PYTHON = '/usr/bin/python3';
const ROOT = join(import.meta.dirname, '../..');
const PACKAGE = join(ROOT, 'clients/python');

interface Run {
  code: number | null;
  out: string;
}

/** A command run to its end without blocking this process, whose service it calls. */
function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  // The caller's own settings never leak into the client under test.
  const { MOD97_URL, MOD97_API_KEY, PYTHONPATH, ...inherited } = process.env;
  return new Promise<Run>((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...inherited, PYTHONDONTWRITEBYTECODE: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', (error) => resolve({ code: null, out: String(error) }));
    child.on('close', (code) => resolve({ code, out }));
  });
}

// ensurepip's wheels (Debian: python3-venv) seed the virtual environment pip installs into.
const probe = await run(PYTHON, [
  '-c',
  'import httpx, pytest, mypy, setuptools, wheel, ensurepip; ensurepip.version()',
]);
const missing =
  probe.code !== 0 &&
  `${PYTHON} lacks httpx, pytest, mypy, setuptools, wheel or ensurepip (Debian: apt-get install python3-httpx python3-pytest python3-mypy python3-setuptools python3-wheel python3-venv)`;

/** The pytest suite against `svc`; fails unless it ran tests and all of them passed. */
async function pytest(svc: TestService, ...args: string[]): Promise<string> {
  const result = await run(
    PYTHON,
    ['-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', ...args, 'clients/python/tests'],
    {
      env: {
        PYTHONPATH: join(PACKAGE, 'src'),
        MOD97_TEST_URL: svc.url,
        MOD97_TEST_ERROR_CODES: JSON.stringify(Object.keys(STATUS)),
      },
    },
  );
  // pytest: 0 all passed, 1 some failed, 5 none collected; only 0 will do.
  assert.equal(result.code, 0, `pytest exited ${result.code}:\n${result.out}`);
  const passed = Number(/(\d+) passed/.exec(result.out)?.[1] ?? 0);
  assert.ok(passed > 0, `pytest ran no test:\n${result.out}`);
  return result.out;
}

describe('the Python client', { skip: missing }, () => {
  test('its pytest suite passes against the service on SQLite', async () => {
    const svc = await startService();
    const out = await pytest(svc);
    assert.match(out, /\d+ passed/);
  });

  test('quota, 402 and idempotent replay hold on PostgreSQL', {
    skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
  }, async () => {
    const svc = await startService({ databaseUrl: throwawaySchema('mod97_python').url });
    await pytest(svc, '-m', 'engines');
  });

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

  test('pip installs it offline into a fresh virtual environment, whose Python runs the example', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mod97-venv-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    // A copy, so the build's own files (build/, *.egg-info) never land in the checkout.
    const source = join(dir, 'python');
    cpSync(PACKAGE, source, { recursive: true, filter: (path) => !/__pycache__|\.mypy_cache|build$/.test(path) });
    const venv = join(dir, 'venv');
    const made = await run(PYTHON, ['-m', 'venv', '--system-site-packages', venv]);
    assert.equal(made.code, 0, made.out);
    const pip = await run(join(venv, 'bin/pip'), ['install', '--no-build-isolation', '--no-index', source]);
    assert.equal(pip.code, 0, pip.out);
    assert.match(pip.out, /Successfully installed mod97-\d+\.\d+\.\d+/);
    const python = join(venv, 'bin/python');
    const where = await run(python, ['-c', 'import mod97, pathlib; print(pathlib.Path(mod97.__file__).parent)'], {
      cwd: dir,
    });
    assert.equal(where.code, 0, where.out);
    assert.ok(where.out.trim().startsWith(venv), `imported from ${where.out}`);
    const typed = await run(python, [
      '-c',
      `import pathlib; assert (pathlib.Path("${where.out.trim()}") / "py.typed").exists()`,
    ]);
    assert.equal(typed.code, 0, `py.typed is installed: ${typed.out}`);

    const svc = await startService();
    const example = await run(python, [join(PACKAGE, 'examples/quickstart.py')], {
      cwd: dir,
      env: { MOD97_URL: svc.url },
    });
    assert.equal(example.code, 0, example.out);
    assert.equal(
      example.out,
      [
        'sync no key: 402 payment_required',
        'sync validate: DE89 3704 0044 0532 0130 00: valid (Commerzbank)',
        "sync batch: 1 of 2 valid, errors ['checksum_failed']",
        "sync usage: 3 of 25, quota {'used': 3, 'limit': 25, 'remaining': 22, 'month': '2026-11'}",
        'sync unknown key: 401 invalid_api_key',
        'async no key: 402 payment_required',
        'async validate: DE89 3704 0044 0532 0130 00: valid (Commerzbank)',
        'async batch: 2 of 2 valid, errors []',
        'async usage: 6 of 25',
        'async unknown key: 401 invalid_api_key',
        '',
      ].join('\n'),
    );
  });
});
