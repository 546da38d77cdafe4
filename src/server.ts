/** Start-up: read config, open the store, build the app, listen; stop gracefully on a signal. */
import { buildApp } from './app.ts';
import { systemClock } from './clock.ts';
import { readConfig } from './config.ts';
import { BUILT_DATA } from './data/compact.ts';
import { DomainError } from './errors.ts';
import { loadCompiledSchemas } from './http/compiled-schemas.ts';
import { logStartup } from './ops/startup.ts';
import { buildServices } from './services.ts';
import { openStore } from './store/index.ts';
import { codeOf } from './thrown.ts';

/**
 * A setting that cannot work (a bad variable, a pepper the keys were not made with, a database
 * that cannot be reached) stops the start, saying why.
 */
async function start() {
  const config = readConfig();
  const store = await openStore(config.databaseUrl);
  try {
    // The build's compact copy of the bundled data (src/data/compact.ts): the first load reads it.
    const services = await buildServices(config, store, systemClock, { builtData: BUILT_DATA });
    // The build's compiled route schemas: none is compiled at start (src/http/compiled-schemas.ts).
    const compilers = (await loadCompiledSchemas()) ?? undefined;
    return { config, store, services, app: await buildApp(services, { compilers }) };
  } catch (err) {
    await store.close();
    throw err;
  }
}

const { config, store, services, app } = await start().catch((err: unknown) => {
  // a database that cannot be reached is named (host, port, cause) by the store
  if (!(err instanceof DomainError && ['invalid_config', 'storage_unavailable'].includes(err.code))) throw err;
  process.stderr.write(`mod97: cannot start: ${err.message}\n`);
  process.exit(1);
});

const LISTEN_FAULTS: Record<string, string> = {
  EADDRINUSE: 'is in use by another process: stop it, or set PORT to a free port',
  EADDRNOTAVAIL: 'is not an address of this machine: set HOST to one of its addresses (127.0.0.1, 0.0.0.0)',
  EACCES: 'needs privileges this process lacks: set PORT to 1024 or above',
  ENOTFOUND: 'names a host that does not resolve: set HOST to an address of this machine',
};

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

await app.listen({ port: config.port, host: config.host }).catch(async (err: unknown) => {
  // The address cannot be had: named with the variables that chose it.
  const why = LISTEN_FAULTS[String(codeOf(err))];
  if (!why) throw err;
  await store.close();
  process.stderr.write(`mod97: cannot start: ${config.host}:${config.port} (HOST, PORT) ${why}.\n`);
  process.exit(1);
});
logStartup(app.log, services);
