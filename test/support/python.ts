/**
 * What the Python client's tests share (test/clients/python*.test.ts): Debian's python3, the
 * package's folder, a command run without blocking the service it calls, and why the tests skip
 * when python3 lacks what they need.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const PYTHON = '/usr/bin/python3';
const ROOT = join(import.meta.dirname, '..', '..');
export const PACKAGE = join(ROOT, 'clients/python');

export interface Run {
  code: number | null;
  out: string;
}

/** A command run to its end without blocking this process, whose service it calls. */
export function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
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
export const missing =
  probe.code !== 0 &&
  `${PYTHON} lacks httpx, pytest, mypy, setuptools, wheel or ensurepip (Debian: apt-get install python3-httpx python3-pytest python3-mypy python3-setuptools python3-wheel python3-venv)`;
