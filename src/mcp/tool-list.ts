/**
 * The tools as a server would list them, built without a service: `mod97 mcp` lists these when
 * the service it forwards to cannot be reached, so that an agent still sees what it can call.
 * They come from the same declarations the server uses (src/api/): no payment rail is named,
 * since the service's are unknown.
 */
import { buildTools, type Tool } from './tools.ts';

let built: Tool['definition'][] | null = null;

/** The tools/list entries, built once. */
export function offlineToolList(): Promise<Tool['definition'][]> {
  built ??= buildTools({ x402: false, card: false }).map((t) => t.definition);
  return Promise.resolve(built);
}
