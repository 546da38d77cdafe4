/** The `mod97` command as a user runs it: bin/mod97.js in a child process, with only the environment given. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { computeCheckDigits } from '../../src/iban/mod97.ts';
import type { TestService } from '../support/app.ts';

export const BIN = fileURLToPath(new URL('../../bin/mod97.js', import.meta.url));

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function start(args: string[], env: Record<string, string>, cwd?: string): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function finish(child: ChildProcess): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

export const mod97 = (args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Ran> =>
  finish(start(args, env, cwd));

/** A key of the `credits` tier with this balance, for files larger than a free key's quota. */
export async function creditsKey(svc: TestService, balance: number): Promise<string> {
  const { secret } = await svc.services.keys.insert({
    tier: 'credits',
    network: '127.0.0.1',
    emailHash: null,
    alertBorn: false,
    limit: balance,
    lifetimePeriod: `credits:test:${balance}`,
  });
  return secret;
}

/**
 * The n-th of a run of distinct, valid Austrian IBANs (bank 19043, account n), for files that
 * cost one request a row (Austria has no national check digit that an arbitrary account fails).
 */
export function austrianIban(n: number): string {
  const bban = `19043${String(n).padStart(11, '0')}`;
  return `AT${computeCheckDigits('AT', bban)}${bban}`;
}
