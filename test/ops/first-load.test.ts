/**
 * The reference data loads on the first call other than /healthz (src/app.ts): the liveness
 * probe answers without it, and the calls that arrive first wait for it and answer from it.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';
import { BUILT_DATA } from '../../src/data/compact.ts';
import { buildServices } from '../../src/services.ts';
import { openStore } from '../../src/store/index.ts';
import { testClock } from '../support/app.ts';

test('/healthz answers before the data is loaded; the first calls wait for the load and answer from the data', async () => {
  const config = readConfig({ MOD97_DATABASE_URL: 'sqlite::memory:', MOD97_LOG_LEVEL: 'warn' });
  const store = await openStore(config.databaseUrl);
  const services = await buildServices(config, store, testClock());
  const app = await buildApp(services);
  after(async () => {
    await app.close();
    await store.close();
  });
  assert.equal(services.data.provenance()[0].name, 'schwifty bank registry', 'the sources are named before the load');

  const alive = await app.inject({ url: '/healthz' });
  assert.deepEqual([alive.statusCode, alive.json()], [200, { status: 'ok' }]);
  assert.equal(services.data.loaded, false, '/healthz does not load the data');

  const [ready, validated] = await Promise.all([
    app.inject({ url: '/readyz' }),
    app.inject({ method: 'POST', url: '/v1/iban/validate', payload: { iban: 'DE89370400440532013000' } }),
  ]);
  assert.equal(ready.statusCode, 200);
  assert.equal(ready.json().data_version, services.data.dataVersion());
  assert.equal(validated.statusCode, 200);
  assert.equal(validated.json().bank.bic, 'COBADEFFXXX');
});

test("a service given the build's compact data answers its first calls from it, as one that indexes the bundled files", async () => {
  const config = readConfig({ MOD97_DATABASE_URL: 'sqlite::memory:', MOD97_LOG_LEVEL: 'warn' });
  const answers = async (builtData?: string) => {
    const store = await openStore(config.databaseUrl);
    const services = await buildServices(config, store, testClock(), { builtData });
    const app = await buildApp(services);
    after(async () => {
      await app.close();
      await store.close();
    });
    const calls = [
      { method: 'POST' as const, url: '/v1/iban/validate', payload: { iban: 'DE89370400440532013000' } },
      { method: 'POST' as const, url: '/v1/iban/validate', payload: { iban: 'CH9300762011623852957' } },
      { method: 'GET' as const, url: '/readyz' },
    ];
    const replies = [];
    for (const call of calls) replies.push((await app.inject(call)).json());
    return { replies, bic: services.data.bic('COBADEFFXXX'), clearing: services.data.clearing('230') };
  };
  const built = await answers(BUILT_DATA);
  assert.equal(built.replies[0].bank.bic, 'COBADEFFXXX');
  const indexed = await answers();
  assert.deepEqual(built, indexed);
});
