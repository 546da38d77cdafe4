// The start-up baseline: a bare Fastify server answering /healthz, nothing else, as plain
// JavaScript run by node (bench/startup.ts starts it side by side with mod97's bundle).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
