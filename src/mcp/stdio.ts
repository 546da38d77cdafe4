/**
 * `mod97 mcp`: an MCP server on stdio that forwards tools/list and tools/call to a mod97 service's
 * /mcp, so an agent on a laptop uses a hosted mod97. It holds no tools of its own: the service
 * meters every call, and its answers (refusals included) come back unchanged.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';

interface StdioBridgeOptions {
  /** The service's base address, e.g. https://mod97.example.com. */
  url: string;
  /** Sent as `Authorization: Bearer` on every request; without it the service's no-key trial applies. */
  apiKey?: string;
}

/** Runs until stdin closes. Rejects when the service cannot be reached or refuses the key. */
export async function runStdioBridge(opts: StdioBridgeOptions): Promise<void> {
  const remote = new Client({ name: 'mod97-stdio-bridge', version: '1.0.0' });
  const endpoint = new URL('/mcp', opts.url);
  await remote.connect(
    new StreamableHTTPClientTransport(endpoint, {
      requestInit: opts.apiKey ? { headers: { authorization: `Bearer ${opts.apiKey}` } } : undefined,
    }),
  );
  const info = remote.getServerVersion();
  const local = new Server(
    { name: info?.name ?? 'mod97', title: info?.title, version: info?.version ?? '0.0.0' },
    { capabilities: { tools: {} }, instructions: remote.getInstructions() },
  );
  // Passed through as they are: the client's own checks (output schemas) belong to the agent's side.
  local.setRequestHandler(ListToolsRequestSchema, (request) => remote.request(request, ListToolsResultSchema));
  local.setRequestHandler(CallToolRequestSchema, (request) => remote.request(request, CallToolResultSchema));

  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
  });
  // The SDK's stdio transport does not watch for the end of stdin: the agent closing it ends the bridge.
  process.stdin.once('end', () => void local.close());
  await local.connect(new StdioServerTransport());
  await closed;
  await remote.close();
}
