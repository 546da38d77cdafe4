/**
 * A PostgreSQL server of the test's own: `initdb` in a temporary directory, `pg_ctl` on a free
 * loopback port, run as the `postgres` OS user. Tests that stop or restart the database use this,
 * never the machine's shared cluster. `findPostgresBin()` is null where the binaries are absent.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/loopback.ts';

const run = promisify(execFile);

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl, or null. */
export function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : null;
}

/** Why a private server cannot run here, or null when it can. */
export function privatePostgresUnavailable(): string | null {
  if (!findPostgresBin()) return 'PostgreSQL server binaries (/usr/lib/postgresql/*/bin) are not installed';
  if (userInfo().uid !== 0) return 'starting a private PostgreSQL needs root (to run it as the postgres user)';
  return null;
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  start(): Promise<void>;
  /** Fast shutdown: sessions are ended (57P01), as on a real restart. */
  stop(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed');
  const dir = mkdtempSync(join(tmpdir(), 'mod97-pg-'));
  chownSync(
    dir,
    Number((await run('id', ['-u', 'postgres'])).stdout),
    Number((await run('id', ['-g', 'postgres'])).stdout),
  );
  const data = join(dir, 'data');
  const asPostgres = (cmd: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]);
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  // fsync off: the data is thrown away with the directory; the test is about connections.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = async () => {
    await asPostgres('pg_ctl', ['start', '-w', '-D', data, '-l', join(dir, 'log'), '-o', options]);
  };
  const stop = async () => {
    await asPostgres('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data]);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
