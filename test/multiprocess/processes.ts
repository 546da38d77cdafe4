/** Real mod97 processes, as `npm start` runs them (`node dist/server.js`, built by scripts/test.sh), on free ports. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Far above the longest clean stop a test makes (a request in flight finished first: about 7 s). */
const STOP_TIMEOUT_MS = 60_000;

export interface Mod97Process {
  url: string;
  child: ChildProcess;
  /** Log lines (JSON) written so far. */
  logs: string[];
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts one process on PORT=0 and resolves once it listens and its /readyz has answered. */
export function startProcess(env: Record<string, string>, execArgv: string[] = []): Promise<Mod97Process> {
  const child = spawn(process.execPath, [...execArgv, 'dist/server.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', MOD97_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill(signal);
    // A process that outlives its signal fails the test here, by name, instead of holding the
    // test file to the runner's 15-minute timeout.
    let outlived = false;
    const timer = setTimeout(() => {
      outlived = true;
      child.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    if (outlived)
      throw new Error(`mod97 (pid ${child.pid}) did not exit within ${STOP_TIMEOUT_MS / 1000} s of ${signal}`);
    return code;
  };
  return new Promise((resolve, reject) => {
    let pending = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.stdout!.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        // As a load balancer would: /readyz answers once the reference data is loaded (whatever it answers).
        if (listening)
          fetch(`${listening[1]}/readyz`).then(
            () => resolve({ url: listening[1], child, logs, stop }),
            (err: unknown) => reject(err),
          );
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`mod97 exited with ${code} before listening: ${stderr.slice(-2000)}`)),
    );
  });
}
