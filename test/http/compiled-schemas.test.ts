/**
 * The route schemas compiled at build time (src/http/compiled-schemas.ts): the build holds every
 * schema the app compiles under each captured setting, an app on them answers as one that
 * compiles its own, and a schema the build lacks is compiled as before.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '../../src/api/index.ts';
import { buildApp } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';
import {
  COMPILED_SCHEMAS,
  type CompiledSchemaModule,
  type Compilers,
  compiledCompilers,
} from '../../src/http/compiled-schemas.ts';
import { CAPTURED_SETTINGS } from '../../src/http/schema-capture.ts';
import { sharedCompilers } from '../../src/http/schema-compilers.ts';
import { buildServices } from '../../src/services.ts';
import { openStore } from '../../src/store/index.ts';
import { testClock } from '../support/app.ts';

const compiled = (await import(COMPILED_SCHEMAS)) as CompiledSchemaModule;

interface Served {
  app: FastifyInstance;
  /** A Pro key, so that every route answers past its quota check. */
  key: string;
}

async function appWith(compilers: Compilers | undefined, env: Record<string, string> = {}): Promise<Served> {
  const config = readConfig({ MOD97_DATABASE_URL: 'sqlite::memory:', MOD97_LOG_LEVEL: 'silent', ...env });
  const store = await openStore(config.databaseUrl);
  const services = await buildServices(config, store, testClock());
  const app = await buildApp(services, { compilers });
  after(async () => {
    await app.close();
    await store.close();
  });
  const key: string = (await app.inject({ method: 'POST', url: '/v1/keys/generate', payload: {} })).json().api_key;
  const row = await services.keys.authenticate(key);
  assert.ok(row);
  const pro = { tier: 'pro', basis: 'monthly', limit: 10_000, lifetimePeriod: null } as const;
  assert.ok(await store.changePlan(row.id, row.planRev, pro));
  return { app, key };
}

/** Each route's example request, then bodies its schema refuses (not rotate: it would end the key the calls send). */
const REQUESTS = API_ROUTES.filter(({ url }) => url !== '/v1/keys/rotate').flatMap(({ example }) => [
  { method: example.method, url: example.path, body: example.body },
  ...(example.method === 'POST'
    ? [
        { method: 'POST', url: example.path, body: {} },
        { method: 'POST', url: example.path, body: { unexpected: 1 } },
        { method: 'POST', url: example.path, body: [] },
      ]
    : []),
]);

/** An answer as a caller reads it; a new key's secret (random) is left out. */
async function answer({ app, key }: Served, request: (typeof REQUESTS)[number]) {
  const reply = await app.inject({
    method: request.method === 'GET' ? 'GET' : 'POST',
    url: request.url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(request.body !== undefined && { payload: JSON.stringify(request.body) }),
  });
  const body: unknown = reply.headers['content-type']?.toString().includes('json') ? reply.json() : reply.body;
  for (const random of ['api_key', 'key_prefix', 'id', 'session_id', 'url'])
    if (body && typeof body === 'object' && random in body) Object.assign(body, { [random]: '(random)' });
  return { status: reply.statusCode, type: reply.headers['content-type'], body };
}

describe('route schemas compiled at build time', () => {
  test('dist/compiled-schemas.js holds every schema the app compiles, under each captured setting', async () => {
    for (const setting of CAPTURED_SETTINGS) {
      let misses = 0;
      const counting = compiledCompilers(compiled, () => {
        misses++;
        return sharedCompilers;
      });
      await appWith(counting, setting);
      assert.equal(misses, 0, `schemas compiled at start under ${JSON.stringify(setting)}: rebuild (npm run build)`);
    }
  });

  test('an app on the compiled schemas answers every example, and bodies refused, as one compiling its own', async () => {
    const own = await appWith(undefined);
    const built = await appWith(compiledCompilers(compiled));
    for (const request of REQUESTS) {
      const label = `${request.method} ${request.url} ${JSON.stringify(request.body)}`;
      assert.deepEqual(await answer(built, request), await answer(own, request), label);
    }
  });

  test('a schema the build lacks is compiled at start, by the compilers written beside it', async () => {
    const own = await appWith(undefined);
    const none = await appWith(compiledCompilers({ validators: {}, serializers: {} }));
    for (const request of REQUESTS.slice(0, 8)) {
      assert.deepEqual(await answer(none, request), await answer(own, request), `${request.method} ${request.url}`);
    }
  });
});
