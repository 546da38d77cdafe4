/**
 * `npm run mcp:server-json`: writes the tools of server.json (the MCP Registry entry) from the
 * route declarations, as a server with no payment rail on lists them, so that the entry and the
 * served card (src/mcp/server-card.ts) never drift apart (test/mcp/server-card.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverCard, TOOLS_META } from '../src/mcp/server-card.ts';
import { ROOT } from '../src/root.ts';

const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided';
const path = join(ROOT, 'server.json');
const entry = JSON.parse(readFileSync(path, 'utf8'));
const tools = serverCard('http://127.0.0.1:3000', { x402: false, card: false })._meta[TOOLS_META];
entry._meta[PUBLISHER_META][TOOLS_META] = tools;
writeFileSync(path, `${JSON.stringify(entry, null, 2)}\n`);
console.log(`server.json: ${JSON.stringify(tools).length} characters of tools written`);
