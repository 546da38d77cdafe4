/**
 * Writes the route schemas, compiled (src/http/schema-capture.ts), to the file named on the
 * command line: the app is built (not started) under each of the captured settings.
 * scripts/build.mjs runs this as a bundle of its own, placed in dist/ so that the sources' root
 * resolves as at run time.
 *
 * Usage: node <bundle of this file> OUT_FILE
 */
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { readConfig } from '../src/config.ts';
import {
  CAPTURED_SETTINGS,
  type CapturedSchemas,
  capturingCompilers,
  compiledSchemaModule,
} from '../src/http/schema-capture.ts';
import { buildServices } from '../src/services.ts';
import { openStore } from '../src/store/index.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: compile-schemas OUT_FILE');

const captured: CapturedSchemas = { validators: new Map(), serializers: new Map() };
for (const setting of CAPTURED_SETTINGS) {
  const config = readConfig({
    MOD97_DATABASE_URL: 'sqlite::memory:',
    MOD97_KEY_PEPPER: 'schemas-'.repeat(8),
    MOD97_LOG_LEVEL: 'error',
    ...setting,
  });
  const store = await openStore(config.databaseUrl);
  const services = await buildServices(config, store, systemClock);
  const app = await buildApp(services, { compilers: capturingCompilers(captured) });
  await app.ready();
  await app.close();
  await store.close();
}
writeFileSync(out, compiledSchemaModule(captured));
