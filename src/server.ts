/** Start-up: read config, open the store, build the app, listen; stop gracefully on a signal. */
import { buildApp } from './app.ts';
import { systemClock } from './clock.ts';
import { readConfig } from './config.ts';
import { buildServices } from './services.ts';
import { openStore } from './store/index.ts';

const config = readConfig();
const store = await openStore(config.databaseUrl);
const services = await buildServices(config, store, systemClock);
const app = await buildApp(services);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  await app.close();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
