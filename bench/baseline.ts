/**
 * The baseline: a bare Fastify route answering POST /v1/iban/validate with the same JSON that
 * mod97 returns for the benchmark's IBAN, computed once. No auth, quota, hooks or logging:
 * the distance to this is what mod97's own work costs. Run as a child process by run.ts.
 */
import Fastify from 'fastify';
import { loadDataPlane } from '../src/data/index.ts';
import { createDescribe } from '../src/describe.ts';
import { openStore } from '../src/store/index.ts';
import { BENCH_IBAN } from './load.ts';

const store = await openStore('sqlite::memory:');
const answer = createDescribe(await loadDataPlane(store))(BENCH_IBAN);
await store.close();
const app = Fastify({ logger: false });
app.post('/v1/iban/validate', async () => answer);
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
