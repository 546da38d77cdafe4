/**
 * What an operator sees at start (docs/api.md and README, "Operations"): one line of settings, a warning per
 * risky default, a warning (once) for X-Forwarded-For from a peer that is not a trusted proxy,
 * and a start that stops, saying why, on a pepper other than the one the keys were made with.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readConfig } from '../../src/config.ts';
import { sourcesOf } from '../../src/data/snapshot.ts';
import { registerWarnings, staleDataWarnings } from '../../src/ops/startup.ts';
import { buildServices } from '../../src/services.ts';
import type { DatasetMeta } from '../../src/store/types.ts';
import { openStore } from '../../src/store/index.ts';
import { REPO_ROOT, startProcess, type Mod97Process } from '../multiprocess/processes.ts';
import { startService, testClock } from '../support/app.ts';
import { freePort } from '../support/loopback.ts';
import { pgUrl } from '../support/pg.ts';

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

/**
 * Runs `node dist/server.js` (npm start) or `bin/mod97.js serve` until it exits, or kills it
 * after 20 s (a start that hangs: code null).
 */
function startFails(
  env: Record<string, string>,
  entry: 'dist/server.js' | 'bin/mod97.js serve',
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, entry.split(' '), {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', MOD97_DATABASE_URL: 'sqlite::memory:', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const hung = setTimeout(() => child.kill('SIGKILL'), 20_000);
  after(() => child.kill('SIGKILL'));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(hung);
      resolve({ code, stderr });
    }),
  );
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

  test('with the pepper and public URL set and data under 90 days old, the only warning is the EPC register not imported', async () => {
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
    assert.deepEqual(
      quiet.warnings.map((w) => w.setting),
      ['epc_register'],
    );
    clock.advance(91 * 86_400_000);
    const stale = logStartup(svc.app.log, svc.services);
    assert.deepEqual(
      stale.warnings.map((w) => w.setting),
      ['data', 'epc_register'],
    );
    const warned = parsed(svc.logs).filter((l) => l.component === 'startup' && l.level === 40 && l.setting === 'data');
    assert.equal(warned.length, 1);
    assert.match(warned[0].msg, /older than 90 days: .*\d{4}-\d{2}-\d{2}/);
  });

  test('the data-age warning names only what `mod97 data update` refreshes, with the command; shipped data says "update mod97"', async () => {
    const proc = await startProcess({ MOD97_DATABASE_URL: tempDatabase(), MOD97_KEY_PEPPER: PEPPER });
    after(() => proc.stop('SIGKILL'));
    // The bundled OFAC snapshot (2024-05-03) is stale on any day this runs.
    const data = await lineOf(proc, /Reference data older than 90 days/);
    assert.equal(data.level, 40);
    assert.match(String(data.msg), /OFAC SDN list \(sdn\.csv\) \(2024-05-03\)/);
    assert.match(
      String(data.msg),
      /Run `mod97 data update [a-z0-9 -]*ofac-sdn[a-z0-9 -]*`, or set MOD97_DATA_REFRESH=daily\./,
    );
    for (const shipped of ['schwifty', 'iban-to-bic'])
      assert.doesNotMatch(String(data.msg), new RegExp(shipped), `${shipped} cannot be refreshed by data update`);
    assert.ok(String(data.msg).length < 400, 'one short line');
  });

  test('imports newer than 90 days clear the update warning; shipped data is named apart, with "update mod97"', () => {
    const now = Date.parse('2027-06-01T12:00:00Z');
    const fresh = (kind: string): DatasetMeta => ({
      kind,
      source: `${kind} file`,
      asOf: '2027-05-20',
      asOfBasis: null,
      importedAt: now,
      count: 10,
    });
    const before = staleDataWarnings(sourcesOf([], now), now);
    const update = before.find((w) => w.setting === 'data');
    assert.match(update?.message ?? '', /`mod97 data update bundesbank-blz six-bankmaster ofac-sdn`/);
    const release = before.find((w) => w.setting === 'release_data');
    assert.match(release?.message ?? '', /schwifty bank registry \(2026-07-23\).*Update mod97 to a newer release/);
    assert.doesNotMatch(release?.message ?? '', /OFAC|mod97 data update/);

    const imported = ['bundesbank-blz', 'six-bankmaster', 'ofac-sdn'].map(fresh);
    const after = staleDataWarnings(sourcesOf(imported, now), now);
    assert.deepEqual(
      after.map((w) => w.setting),
      ['release_data'],
      'nothing left that data update could refresh',
    );
    const old = staleDataWarnings(sourcesOf([{ ...fresh('epc-sct'), asOf: '2026-01-01' }], now), now);
    assert.match(old[0].message, /dataset|epc-sct file \(2026-01-01\)/);
    assert.match(old[0].message, /`mod97 data update [a-z -]*epc-register[a-z -]*`/);
  });

  test('the EPC register not imported is named at start with the one command; imported, it is not', async () => {
    const proc = await startProcess({ MOD97_DATABASE_URL: tempDatabase(), MOD97_KEY_PEPPER: PEPPER });
    after(() => proc.stop('SIGKILL'));
    const line = await lineOf(proc, /EPC register of SEPA participants is not imported/);
    assert.equal(line.level, 40);
    assert.equal(line.setting, 'epc_register');
    assert.match(String(line.msg), /not imported.*`mod97 data update epc-register`/);
    const now = Date.parse('2027-06-01T12:00:00Z');
    const imported: DatasetMeta = {
      kind: 'epc-sct',
      source: 'EPC SCT register',
      asOf: '2027-05-20',
      asOfBasis: null,
      importedAt: now,
      count: 10,
    };
    assert.deepEqual(registerWarnings(sourcesOf([imported], now)), []);
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

  test('a PostgreSQL server that cannot be reached stops the start naming host, port and cause, never the password', async () => {
    const port = await freePort();
    const stopped = await runUntilExit({
      MOD97_DATABASE_URL: `postgres://mod97:s3cret-pw@127.0.0.1:${port}/mod97`,
      MOD97_KEY_PEPPER: PEPPER,
    });
    assert.equal(stopped.code, 1);
    assert.match(
      stopped.stderr,
      new RegExp(
        `^mod97: cannot start: PostgreSQL at 127\\.0\\.0\\.1:${port} \\(database "mod97", user "mod97"\\) cannot be reached: connect ECONNREFUSED`,
      ),
    );
    assert.doesNotMatch(stopped.stderr, /s3cret-pw/);
    assert.doesNotMatch(stopped.stderr, /\n\s+at /, 'no stack trace');
  });

  test("a refused login names the server and PostgreSQL's reason", {
    skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
  }, async () => {
    const url = new URL(pgUrl as string);
    url.username = 'mod97_no_such_role';
    url.password = 'pw-never-shown';
    const stopped = await runUntilExit({ MOD97_DATABASE_URL: url.toString(), MOD97_KEY_PEPPER: PEPPER });
    assert.equal(stopped.code, 1);
    assert.match(
      stopped.stderr,
      new RegExp(
        `PostgreSQL at ${url.hostname.replace(/\./g, '\\.')}:${url.port || 5432} .*user "mod97_no_such_role".*cannot be reached: .*mod97_no_such_role`,
      ),
    );
    assert.doesNotMatch(stopped.stderr, /pw-never-shown/);
  });

  test('a short pepper, and one half of a payment rail, stop the start saying which variable', async () => {
    const short = await runUntilExit({ MOD97_DATABASE_URL: 'sqlite::memory:', MOD97_KEY_PEPPER: 'abc' });
    assert.equal(short.code, 1);
    assert.match(short.stderr, /^mod97: cannot start: MOD97_KEY_PEPPER is 3 bytes long; it must be at least 32/);
    const half = await runUntilExit({ MOD97_DATABASE_URL: 'sqlite::memory:', STRIPE_SECRET_KEY: 'sk_test_1' });
    assert.equal(half.code, 1);
    assert.match(half.stderr, /^mod97: cannot start: STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not/);
  });

  test('an address in use, a public URL that is not one, and an unknown log level stop the start in one line', async () => {
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    after(() => taken.close());
    const port = String((taken.address() as AddressInfo).port);
    const inUse = await runUntilExit({ MOD97_DATABASE_URL: 'sqlite::memory:', PORT: port });
    assert.deepEqual(
      [inUse.code, inUse.stderr],
      [
        1,
        `mod97: cannot start: 127.0.0.1:${port} (HOST, PORT) is in use by another process: stop it, or set PORT to a free port.\n`,
      ],
    );
    for (const [env, said] of [
      [{ MOD97_PUBLIC_URL: 'notaurl' }, /^mod97: cannot start: MOD97_PUBLIC_URL must be the http\(s\) address/],
      [{ MOD97_LOG_LEVEL: 'loud' }, /^mod97: cannot start: MOD97_LOG_LEVEL must be one of fatal, error/],
    ] as const) {
      const r = await runUntilExit({ MOD97_DATABASE_URL: 'sqlite::memory:', ...env });
      assert.deepEqual([r.code, said.test(r.stderr), r.stderr.split('\n').length], [1, true, 2], r.stderr);
    }
  });

  test('a bad MOD97_TRUST_PROXY or an unusable SQLite MOD97_DATABASE_URL stops the start in one line naming it, under npm start and mod97 serve', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mod97-bad-db-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const notDatabase = join(dir, 'notes.txt');
    writeFileSync(notDatabase, 'these are not the pages of a SQLite database, but plain text.\n'.repeat(100));
    const cases: [Record<string, string>, RegExp][] = [
      [{ MOD97_TRUST_PROXY: 'banana' }, /^mod97: cannot start: MOD97_TRUST_PROXY: "banana" is not/],
      [{ MOD97_TRUST_PROXY: '127.0.0.1,10.0.0.0/99' }, /^mod97: cannot start: MOD97_TRUST_PROXY: "10\.0\.0\.0\/99" /],
      [{ MOD97_DATABASE_URL: 'sqlite:' }, /^mod97: cannot start: MOD97_DATABASE_URL .*names no file/],
      [
        { MOD97_DATABASE_URL: `sqlite:${notDatabase}` },
        /^mod97: cannot start: MOD97_DATABASE_URL: .*notes\.txt is not a SQLite database/,
      ],
      [
        { MOD97_DATABASE_URL: `sqlite:${notDatabase}/x.db` },
        /^mod97: cannot start: MOD97_DATABASE_URL: .*notes\.txt is a file, not a folder/,
      ],
      [
        { MOD97_DATABASE_URL: `sqlite:${notDatabase}/a/x.db` },
        /^mod97: cannot start: MOD97_DATABASE_URL: .*notes\.txt is a file, not a folder/,
      ],
      [
        { MOD97_DATABASE_URL: 'sqlite:/proc/mod97-none/y.db' },
        /^mod97: cannot start: MOD97_DATABASE_URL: cannot create the folder \/proc\/mod97-none/,
      ],
    ];
    for (const entry of ['dist/server.js', 'bin/mod97.js serve'] as const)
      for (const [env, said] of cases) {
        const r = await startFails(env, entry);
        assert.deepEqual(
          [r.code, said.test(r.stderr), r.stderr.split('\n').length],
          [1, true, 2],
          `${entry} ${JSON.stringify(env)}: ${r.stderr}`,
        );
      }
  });

  test('a MOD97_MAIL_FROM that is not an address stops the start in one line naming it', async () => {
    for (const from of ['notanaddress', 'mod97 <no-reply>', 'a@b.example, c@d.example'])
      for (const entry of ['dist/server.js', 'bin/mod97.js serve'] as const) {
        const r = await startFails({ MOD97_MAIL_FROM: from }, entry);
        assert.deepEqual(
          [r.code, /^mod97: cannot start: MOD97_MAIL_FROM /.test(r.stderr), r.stderr.split('\n').length],
          [1, true, 2],
          `${entry} ${from}: ${r.stderr}`,
        );
      }
    for (const from of ['no-reply@mod97.example', 'mod97 <no-reply@mod97.example>', '"mod97, IBANs" <a@b.example>'])
      assert.equal(readConfig({ MOD97_MAIL_FROM: from }).mailFrom, from);
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
