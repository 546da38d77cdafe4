import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';
import { buildServices } from '../../src/services.ts';
import { openStore } from '../../src/store/index.ts';
import { startService, testClock } from '../support/app.ts';
import { call, type CallOptions } from '../support/http.ts';

// The caller's network is observed over HTTP through the no-key trial counters of usage.
const IBAN = 'DE89370400440532013000';
type Send = (path: string, opts?: CallOptions) => ReturnType<typeof call>;
const trialUsed = async (send: Send, opts: CallOptions) => (await send('/v1/keys/usage', opts)).body.used as number;
const via = (forwardedFor: string, from?: string): CallOptions => ({
  from,
  headers: { 'x-forwarded-for': forwardedFor },
});

describe('MOD97_TRUST_PROXY and X-Forwarded-For over sockets', () => {
  test('behind a trusted proxy the right-most untrusted hop is the network', async () => {
    const svc = await startService({ env: { MOD97_TRUST_PROXY: '127.0.0.2, 10.0.0.0/8' } });
    const send: Send = svc.call;
    const r = await send('/v1/iban/validate', {
      json: { iban: IBAN },
      ...via('198.51.100.1, 203.0.113.9, 10.1.1.1', '127.0.0.2'),
    });
    assert.equal(r.status, 200);
    assert.equal(await trialUsed(send, via('203.0.113.9', '127.0.0.2')), 1);
    assert.equal(
      await trialUsed(send, via('::ffff:203.0.113.9', '127.0.0.2')),
      1,
      'IPv4-mapped IPv6 is the same network',
    );
    assert.equal(
      await trialUsed(send, via('198.51.100.1', '127.0.0.2')),
      0,
      'a hop the client could have written is not believed',
    );
    assert.equal(await trialUsed(send, { from: '127.0.0.2' }), 0, 'the proxy itself was not charged');
  });

  test('a hop written with its port is read as its address', async () => {
    const svc = await startService({ env: { MOD97_TRUST_PROXY: '127.0.0.2' } });
    const send: Send = svc.call;
    for (const hop of ['198.51.100.9:5555', '[2001:db8::1]:443']) {
      assert.equal((await send('/v1/iban/validate', { json: { iban: IBAN }, ...via(hop, '127.0.0.2') })).status, 200);
    }
    assert.equal(await trialUsed(send, via('198.51.100.9', '127.0.0.2')), 1);
    assert.equal(await trialUsed(send, via('2001:db8::5', '127.0.0.2')), 1, 'the same /64');
    assert.equal(await trialUsed(send, { from: '127.0.0.2' }), 0, "not the proxy's own bucket");
  });

  test("an untrusted peer's X-Forwarded-For is ignored", async () => {
    const svc = await startService({ env: { MOD97_TRUST_PROXY: '127.0.0.2' } });
    const send: Send = svc.call;
    assert.equal(
      (await send('/v1/iban/validate', { json: { iban: IBAN }, ...via('203.0.113.9', '127.0.0.3') })).status,
      200,
    );
    assert.equal(await trialUsed(send, { from: '127.0.0.3' }), 1, 'counted to the socket peer');
    assert.equal(await trialUsed(send, via('203.0.113.9', '127.0.0.2')), 0, 'not to the address it claimed');
  });
});

async function hasIpv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(0, '::1', () => server.close(() => resolve(true)));
  });
}

/** The service on [::1] (test/support listens on 127.0.0.1 only). */
async function startOnIpv6(env: Record<string, string>): Promise<Send> {
  const config = readConfig({ MOD97_DATABASE_URL: 'sqlite::memory:', ...env });
  const store = await openStore(config.databaseUrl);
  const app = await buildApp(await buildServices(config, store, testClock()), {
    logStream: new Writable({ write: (_c, _e, cb) => cb() }),
  });
  await app.listen({ port: 0, host: '::1' });
  after(async () => {
    await app.close();
    await store.close();
  });
  const base = `http://[::1]:${(app.server.address() as AddressInfo).port}`;
  return (path, opts) => call(base, path, opts);
}

describe('IPv6 networks over sockets', async () => {
  const ipv6 = await hasIpv6Loopback();
  test('an IPv6 caller counts by its /64', { skip: !ipv6 && 'no IPv6 loopback on this machine' }, async () => {
    const send = await startOnIpv6({ MOD97_TRUST_PROXY: '::1' });
    assert.equal((await send('/v1/iban/validate', { json: { iban: IBAN }, ...via('2001:db8:1:2::a') })).status, 200);
    assert.equal(await trialUsed(send, via('2001:db8:1:2:ffff::1')), 1, 'same /64, same network');
    assert.equal(await trialUsed(send, via('2001:db8:1:3::a')), 0, 'another /64');
    assert.equal(await trialUsed(send, {}), 0, 'the proxy ::1 itself');
    assert.equal((await send('/v1/iban/validate', { json: { iban: IBAN } })).status, 200);
    assert.equal(await trialUsed(send, {}), 1, 'a direct IPv6 peer is its own /64');
  });
});
