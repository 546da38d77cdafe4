import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { buildServices } from '../src/services.ts';
import { openStore } from '../src/store/index.ts';
const body = JSON.stringify({ iban: 'DE89370400440532013000' });
async function run(url: string, headers: Record<string,string>) {
  const r = await autocannon({ url, connections: 50, duration: 5, method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return `${Math.round(r.requests.average)} req/s p50=${r.latency.p50} p99=${r.latency.p99} non2xx=${r.non2xx}`;
}
const bare = Fastify();
bare.post('/v1/iban/validate', async (req) => ({ iban: 'DE89370400440532013000', valid: true }));
await bare.listen({ port: 4100 });
console.log('bare', await run('http://127.0.0.1:4100/v1/iban/validate', {}));
await bare.close();
const config = readConfig({ MOD97_DATABASE_URL: 'sqlite:/tmp/qb/b.db', MOD97_LOG_LEVEL: 'warn' });
const store = await openStore(config.databaseUrl);
const s = await buildServices(config, store, Date.now);
const issued = await s.keys.insert({ tier: 'pro', network: 'x', emailHash: null, alertBorn: false, limit: 1e9 } as any);
await store.changePlan(issued.key.id, 0, { tier: 'pro', basis: 'monthly', limit: 1e9, lifetimePeriod: null });
const app = await buildApp(s);
await app.listen({ port: 4101 });
console.log('mod97', await run('http://127.0.0.1:4101/v1/iban/validate', { authorization: `Bearer ${issued.secret}` }));
await app.close();
