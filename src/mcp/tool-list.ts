/**
 * The tools as a server would list them, built without a service: `mod97 mcp` lists these when
 * the service it forwards to cannot be reached, so that an agent still sees what it can call.
 * They come from the same declarations the server uses: the routes' own schemas and metering,
 * collected from the route plugins registered on a bare Fastify (no handler ever runs), and the
 * tool table (tools.ts). A tool mirroring a route of another plugin adds that plugin here.
 */
import Fastify from 'fastify';
import { collectRoutes } from '../routes/catalogue.ts';
import { ibanRoutes } from '../routes/iban.ts';
import { keysRoutes } from '../routes/keys.ts';
import { lookupRoutes } from '../routes/lookups.ts';
import type { Services } from '../services.ts';
import { buildTools, type Tool } from './tools.ts';

const PLUGINS = [ibanRoutes, lookupRoutes, keysRoutes];

let built: Promise<Tool['definition'][]> | null = null;

/** The tools/list entries; no payment rail is named, since the service's are unknown. Built once. */
export function offlineToolList(): Promise<Tool['definition'][]> {
  built ??= buildOfflineList();
  return built;
}

async function buildOfflineList(): Promise<Tool['definition'][]> {
  const app = Fastify({ logger: false });
  const catalogue = collectRoutes(app);
  // Registration only reads the routes' declarations; the handlers that would use services never run.
  const inert = {} as Services;
  for (const plugin of PLUGINS) await app.register(plugin(inert));
  await app.ready();
  const tools = buildTools(catalogue, { x402: false, card: false }).map((t) => t.definition);
  await app.close();
  return tools;
}
