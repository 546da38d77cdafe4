/** Starts the real service on 127.0.0.1 with an in-memory (or given) store and a movable clock. */
import { after } from 'node:test';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { buildServices, type Services } from '../../src/services.ts';
import { openStore } from '../../src/store/index.ts';
import { testConfig } from './config.ts';
import { call, type CallOptions, type Reply } from './http.ts';
import { freePort } from './loopback.ts';
import { type ResponseChecker, responseChecker } from './openapi-check.ts';

export interface TestClock {
  (): number;
  set(iso: string): void;
  advance(ms: number): void;
}

export function testClock(iso = '2026-11-21T12:00:00Z'): TestClock {
  let now = Date.parse(iso);
  const clock = (() => now) as TestClock;
  clock.set = (s) => (now = Date.parse(s));
  clock.advance = (ms) => (now += ms);
  return clock;
}

export interface TestService {
  url: string;
  app: FastifyInstance;
  services: Services;
  clock: TestClock;
  logs: string[];
  call(path: string, opts?: CallOptions): ReturnType<typeof call>;
  /** A fresh anonymous key, generated from the given loopback address. */
  newKey(from?: string): Promise<string>;
  /** Moves a key to Pro (monthly, 10,000 unless told) as a paid subscription would; returns it. */
  makePro(key: string, limit?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startService(
  opts: { env?: Record<string, string>; clock?: TestClock; databaseUrl?: string; limits?: AppOptions['limits'] } = {},
): Promise<TestService> {
  const clock = opts.clock ?? testClock();
  // The port is chosen before the config is built, so that its public URL is where the service listens.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig({
    MOD97_PUBLIC_URL: url,
    ...(opts.databaseUrl && { MOD97_DATABASE_URL: opts.databaseUrl }),
    ...opts.env,
  });
  const store = await openStore(config.databaseUrl);
  const services = await buildServices(config, store, clock);
  // Tests read services.data directly, as a call does once the first call has loaded it.
  await services.data.ready();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp(services, { logStream, limits: opts.limits });
  await app.listen({ port, host: '127.0.0.1' });
  let closed = false;
  let checker: Promise<ResponseChecker> | undefined;
  /** Every answer a test receives through the service is held to the served /openapi.json. */
  async function checkedCall(path: string, o: CallOptions = {}): Promise<Reply> {
    const reply = await call(url, path, o);
    checker ??= responseChecker(() => call(url, '/openapi.json'));
    const method = o.method ?? (o.json !== undefined || o.raw !== undefined ? 'POST' : 'GET');
    (await checker).check(method, new URL(path, url).pathname, reply);
    return reply;
  }
  const service: TestService = {
    url,
    app,
    services,
    clock,
    logs,
    call: checkedCall,
    async newKey(from = '127.0.0.1') {
      const r = await checkedCall('/v1/keys/generate', { method: 'POST', from });
      if (r.status !== 201) throw new Error(`generate answered ${r.status}: ${r.text}`);
      return r.body.api_key as string;
    },
    async makePro(key, limit = 10_000) {
      const row = await services.keys.authenticate(key);
      if (!row) throw new Error('makePro: unknown key');
      const plan = { tier: 'pro', basis: 'monthly', limit, lifetimePeriod: null } as const;
      if (!(await services.store.changePlan(row.id, row.planRev, plan))) throw new Error('makePro: plan not changed');
      return key;
    },
    async close() {
      if (closed) return;
      closed = true;
      // The test is over: a connection a browser keeps alive must not hold the server open until
      // it times out (Fastify closes only the idle ones, and a browser may still be sending).
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await store.close();
    },
  };
  after(() => service.close());
  return service;
}
