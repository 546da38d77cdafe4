/**
 * A store that cannot write: a real full disk under SQLite (a small tmpfs mounted by the test)
 * and PostgreSQL down (a private server of the test's own, stopped). Every route that writes
 * answers 503 `storage_unavailable` with Retry-After: 5 and counts nothing; /readyz answers 503
 * from the failed write until a write succeeds again.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { privatePostgresUnavailable, startPrivatePostgres } from '../multiprocess/private-postgres.ts';
import { startService, type TestService } from '../support/app.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';

/** Mounts a tmpfs of `size`, or returns why it cannot be done here. */
function mountTmpfs(size: string): { dir: string; unmount(): void } | string {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]})`;
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a file until the file system has no room left. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

function assertUnavailable(r: { status: number; body: any; headers: Record<string, unknown> }, what: string): void {
  assert.equal(r.status, 503, `${what}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.error, 'storage_unavailable', what);
  assert.equal(r.headers['retry-after'], '5', what);
  assert.equal(typeof r.body.message, 'string');
}

/** Every writing route refuses with 503 while `broken`; afterwards nothing was counted. */
async function checkUnwritable(svc: TestService, breakStore: () => Promise<void>, mend: () => Promise<void>) {
  const key = await svc.newKey('127.0.0.21');
  assert.equal((await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })).status, 200);
  assert.equal((await svc.call('/readyz')).status, 200);

  await breakStore();
  assertUnavailable(await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } }), 'validate with a key');
  assertUnavailable(
    await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.0.22' }),
    'validate on the no-key trial',
  );
  assertUnavailable(await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.23' }), 'generate');
  assertUnavailable(await svc.call('/v1/keys/rotate', { method: 'POST', key }), 'rotate');
  const ready = await svc.call('/readyz');
  assert.equal(ready.status, 503, 'not ready after a failed write');

  await mend();
  const back = await svc.call('/readyz');
  assert.equal(back.status, 200, `ready again once a write succeeds: ${back.text}`);
  const usage = await svc.call('/v1/keys/usage', { key });
  assert.equal(usage.status, 200, usage.text);
  assert.equal(usage.body.used, 1, 'the refused calls were not counted');
  assert.equal((await svc.call('/v1/keys/usage', { from: '127.0.0.22' })).body.used ?? 0, 0);
  assert.equal((await svc.call('/v1/iban/validate', { key, json: { iban: IBAN } })).status, 200);
  assert.equal((await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.23' })).status, 201);
}

describe('a store that cannot write', () => {
  test('SQLite on a full disk', async (t) => {
    const mount = mountTmpfs('2m');
    if (typeof mount === 'string') return t.skip(mount);
    let svc: TestService | undefined;
    t.after(async () => {
      await svc?.close();
      mount.unmount();
    });
    svc = await startService({ databaseUrl: `sqlite:${join(mount.dir, 'mod97.db')}` });
    const filler = join(mount.dir, 'filler');
    await checkUnwritable(
      svc,
      async () => fillDisk(filler),
      async () => rmSync(filler),
    );
  });

  const pgSkip = privatePostgresUnavailable();
  test('PostgreSQL down', { skip: pgSkip ?? false }, async (t) => {
    const pg = await startPrivatePostgres();
    let svc: TestService | undefined;
    t.after(async () => {
      await svc?.close();
      await pg.destroy();
    });
    svc = await startService({ databaseUrl: `${pg.url}?schema=mod97_down` });
    await checkUnwritable(
      svc,
      () => pg.stop(),
      () => pg.start(),
    );
  });
});
