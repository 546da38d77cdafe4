/**
 * What an operator sees at start (docs/api.md and README, "Operations"): one line of settings, a warning per
 * risky default, a warning (once) for X-Forwarded-For from a peer that is not a trusted proxy,
 * and a start that stops, saying why, on a pepper other than the one the keys were made with.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readConfig } from '../../src/config.ts';
import { buildServices } from '../../src/services.ts';
import { openStore } from '../../src/store/index.ts';
import { REPO_ROOT, startProcess, type Mod97Process } from '../multiprocess/processes.ts';
import { startService, testClock } from '../support/app.ts';

const PEPPER = 'a'.repeat(64);

function tempDatabase(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-startup-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'mod97.db')}`;
}

/** Resolves with the first log line matching `pattern`, as it arrives. */
function lineOf(proc: Mod97Process, pattern: RegExp): Promise<Record<string, unknown>> {
  const seen = proc.logs.find((l) => pattern.test(l));
  if (seen) return Promise.resolve(JSON.parse(seen));
  return new Promise((resolve) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const found = lines.find((l) => pattern.test(l));
      if (found) {
        proc.child.stdout!.off('data', onData);
        resolve(JSON.parse(found));
      }
    };
    proc.child.stdout!.on('data', onData);
  });
}

/** Runs dist/server.js until it exits; its exit code and stderr. */
function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  after(() => child.kill('SIGKILL'));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const parsed = (logs: string[]) =>
  logs.flatMap((l) =>
    l
      .split('\n')
      .filter(Boolean)
      .map((x) => JSON.parse(x)),
  );

describe('operators at start', () => {
  test('the service logs one settings line and one warning per risky default (no pepper, default public URL)', async () => {
    const database = tempDatabase();
    const proc = await startProcess({ MOD97_DATABASE_URL: database, MOD97_TRUST_PROXY: '10.0.0.1' });
    after(() => proc.stop('SIGKILL'));
    const settings = await lineOf(proc, /mod97 settings/);
    assert.equal(settings.engine, 'sqlite');
    assert.match(String(settings.public_url), /^http:\/\/localhost:/);
    assert.deepEqual(settings.trusted_proxies, ['10.0.0.1']);
    assert.deepEqual(settings.rails_on, []);
    assert.ok(Array.isArray(settings.data) && settings.data.length > 0);
    assert.match(
      String(settings.msg),
      /engine sqlite, public URL \S+, trusted proxies 10\.0\.0\.1, rails on none, data /,
    );
    const pepper = await lineOf(proc, /MOD97_KEY_PEPPER is not set/);
    const publicUrl = await lineOf(proc, /MOD97_PUBLIC_URL is not set/);
    assert.equal(pepper.level, 40);
    assert.equal(publicUrl.level, 40);
  });

  test('with the pepper and public URL set and data under 90 days old, there is no warning', async () => {
    const clock = testClock('2026-11-21T12:00:00Z');
    const svc = await startService({
      clock,
      env: { MOD97_KEY_PEPPER: PEPPER, MOD97_PUBLIC_URL: 'https://iban.example.com' },
    });
    const { logStartup } = await import('../../src/ops/startup.ts');
    const newest = svc.services.data
      .provenance()
      .map((p) => p.as_of)
      .filter((d): d is string => d !== null)
      .sort()[0];
    // The clock a day after the oldest dated source: nothing is stale.
    clock.set(`${newest}T12:00:00Z`);
    clock.advance(86_400_000);
    const quiet = logStartup(svc.app.log, svc.services);
    assert.deepEqual(quiet.warnings, []);
    clock.advance(91 * 86_400_000);
    const stale = logStartup(svc.app.log, svc.services);
    assert.deepEqual(
      stale.warnings.map((w) => w.setting),
      ['data'],
    );
    const warned = parsed(svc.logs).filter((l) => l.component === 'startup' && l.level === 40);
    assert.equal(warned.length, 1);
    assert.match(warned[0].msg, /older than 90 days: .*\d{4}-\d{2}-\d{2}/);
  });

  test('X-Forwarded-For from a peer that is not a trusted proxy is warned of once', async () => {
    const svc = await startService();
    for (const from of ['127.0.7.1', '127.0.7.2', '127.0.7.1']) {
      const r = await svc.call('/v1/keys/usage', { headers: { 'x-forwarded-for': '198.51.100.7' }, from });
      assert.equal(r.status, 200);
    }
    const warned = parsed(svc.logs).filter((l) => /X-Forwarded-For arrives from a peer/.test(l.msg ?? ''));
    assert.equal(warned.length, 1);
    assert.match(warned[0].msg, /MOD97_TRUST_PROXY/);
    assert.equal(warned[0].level, 40);
  });

  test('a pepper other than the one the keys were made with stops the start, saying so', async () => {
    const database = tempDatabase();
    const first = await buildServices(
      readConfig({ MOD97_DATABASE_URL: database }),
      await openStore(database),
      Date.now,
    );
    const key = await first.keys.generateAnonymous('192.0.2.1');
    await first.store.close();

    const store = await openStore(database);
    after(() => store.close());
    await assert.rejects(
      buildServices(readConfig({ MOD97_DATABASE_URL: database, MOD97_KEY_PEPPER: PEPPER }), store, Date.now),
      /MOD97_KEY_PEPPER differs from the pepper this database's keys were hashed with/,
    );
    // Started as before, the key still works.
    const again = await buildServices(readConfig({ MOD97_DATABASE_URL: database }), store, Date.now);
    assert.ok(await again.keys.authenticate(key.secret));

    const stopped = await runUntilExit({ MOD97_DATABASE_URL: database, MOD97_KEY_PEPPER: PEPPER });
    assert.equal(stopped.code, 1);
    assert.match(stopped.stderr, /^mod97: cannot start: MOD97_KEY_PEPPER differs/);
  });

  test('a database made with MOD97_KEY_PEPPER refuses a start without it', async () => {
    const database = tempDatabase();
    const store = await openStore(database);
    after(() => store.close());
    await buildServices(readConfig({ MOD97_DATABASE_URL: database, MOD97_KEY_PEPPER: PEPPER }), store, Date.now);
    await assert.rejects(
      buildServices(readConfig({ MOD97_DATABASE_URL: database }), store, Date.now),
      /MOD97_KEY_PEPPER is not set, but this database's keys were hashed with a pepper/,
    );
  });
});
