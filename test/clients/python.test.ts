/**
 * The Python client (clients/python) against the real service: its pytest suite on SQLite and, for
 * the tests marked `engines` (quota, 402, idempotent replay), on PostgreSQL; and `pip install` into
 * a fresh virtual environment, offline, whose Python then runs the example. Its types are checked
 * in python-types.test.ts, a file of its own so that the two run side by side. Debian's python3
 * with python3-httpx, -pytest and -mypy runs it (.ci/run installs them); without them the tests
 * skip, saying so.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { STATUS } from '../../src/http/errors.ts';
import { startService, type TestService } from '../support/app.ts';
import { pgUrl, throwawaySchema } from '../support/pg.ts';
import { missing, PACKAGE, PYTHON, run } from '../support/python.ts';

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
