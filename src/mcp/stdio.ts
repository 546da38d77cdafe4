/**
 * `mod97 mcp`: an MCP server on stdio that forwards tools/list and tools/call to a mod97 service's
 * /mcp, so an agent on a laptop uses a hosted mod97. It holds no tools of its own: the service
 * meters every call, and its answers (refusals included) come back unchanged.
 *
 * A service that cannot be reached does not stop it: it starts anyway, lists the tools the
 * service would (tool-list.ts), and answers each call with an error naming MOD97_URL, trying the
 * service again on every request. Nor does a service that refuses the key (401: a mistyped or
 * rotated MOD97_API_KEY): each call then answers that refusal as a tool error, so the agent can
 * tell its user what to fix instead of seeing the server vanish.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { offlineToolList } from './tool-list.ts';
import { causeOf, codeOf, messageIn, messageOf } from '../thrown.ts';

interface StdioBridgeOptions {
  /** The service's base address, e.g. https://mod97.example.com. */
  url: string;
  /** Sent as `Authorization: Bearer` on every request; without it the service's no-key trial applies. */
  apiKey?: string;
}

const OFFLINE_INSTRUCTIONS =
  'mod97 validates IBANs and looks up banks. The mod97 service this server forwards to (MOD97_URL) cannot be reached right now: every tool call answers an error saying so until it can.';

const REFUSED_INSTRUCTIONS =
  'mod97 validates IBANs and looks up banks. The mod97 service refused the key in MOD97_API_KEY (unknown, rotated or revoked): every tool call answers that refusal until the variable holds a valid key.';

/** A REST error body, as the service's refusal of the /mcp request carried it. */
interface Refusal {
  error: string;
  message: string;
}

/** The service answered with an HTTP refusal (a 401 for an unknown key): its REST error body. */
function refusalOf(err: unknown, url: string): Refusal | null {
  if (!(err instanceof StreamableHTTPError) || typeof err.code !== 'number' || err.code < 400) return null;
  const text = err.message.replace(/^Streamable HTTP error: Error POSTing to endpoint: /, '');
  try {
    const body: { error?: unknown; message?: unknown } = JSON.parse(text);
    if (typeof body.error === 'string' && body.error) {
      const message = typeof body.message === 'string' ? body.message : '';
      return { error: body.error, message: `The service at ${url} refused: ${message}`.trim() };
    }
  } catch {
    /* not the service's JSON error body */
  }
  return { error: 'service_refused', message: `The service at ${url} answered HTTP ${err.code} to POST /mcp.` };
}

/** Why the service could not be reached, in one line naming MOD97_URL. */
function unreachable(err: unknown, url: string): string {
  const cause = causeOf(err);
  const why = codeOf(cause) ?? messageIn(cause) ?? messageOf(err);
  return `The mod97 service at ${url} (MOD97_URL) cannot be reached (${why}). Start it, or set MOD97_URL to the address of a running mod97 service.`;
}

/** Runs until stdin closes. Rejects when the service refuses the key. */
export async function runStdioBridge(opts: StdioBridgeOptions): Promise<void> {
  const endpoint = new URL('/mcp', opts.url);
  let remote: Client | null = null;
  /** The service's refusal of the key, until a connection succeeds. */
  let refusal: Refusal | null = null;
  /** The connected client, or null when the service cannot be reached or refuses the key. */
  const connect = async (): Promise<Client | null> => {
    if (remote) return remote;
    const client = new Client({ name: 'mod97-stdio-bridge', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(endpoint, {
          requestInit: opts.apiKey ? { headers: { authorization: `Bearer ${opts.apiKey}` } } : undefined,
        }),
      );
    } catch (err) {
      refusal = refusalOf(err, opts.url);
      if (!refusal) lastFailure = unreachable(err, opts.url);
      return null;
    }
    refusal = null;
    remote = client;
    return client;
  };
  let lastFailure = '';
  /** Forwards a request; a service gone away is forgotten, to be tried again next time. */
  const forward = async <T>(send: (client: Client) => Promise<T>): Promise<T | null> => {
    const client = await connect();
    if (!client) return null;
    try {
      return await send(client);
    } catch (err) {
      // The key rotated while the bridge ran: answered like a key refused at the start.
      refusal = refusalOf(err, opts.url);
      if (!refusal && !(err instanceof TypeError || causeOf(err))) throw err;
      if (!refusal) lastFailure = unreachable(err, opts.url);
      remote = null;
      void client.close();
      return null;
    }
  };

  const first = await connect();
  // Read through a function: the compiler does not see that connect() above may have set it.
  const refusedAtStart = (): Refusal | null => refusal;
  const startRefusal = refusedAtStart();
  if (startRefusal) {
    process.stderr.write(
      `mod97 mcp: ${startRefusal.error}: ${startRefusal.message} Starting anyway; tool calls answer this refusal until MOD97_API_KEY holds a valid key.\n`,
    );
  } else if (!first) process.stderr.write(`mod97 mcp: ${lastFailure} Starting anyway; tool calls answer this error.\n`);
  const info = first?.getServerVersion();
  const local = new Server(
    { name: info?.name ?? 'mod97', title: info?.title ?? 'mod97', version: info?.version ?? '0.0.0' },
    {
      capabilities: { tools: {} },
      instructions: first ? first.getInstructions() : startRefusal ? REFUSED_INSTRUCTIONS : OFFLINE_INSTRUCTIONS,
    },
  );
  // Passed through as they are: the client's own checks (output schemas) belong to the agent's side.
  local.setRequestHandler(
    ListToolsRequestSchema,
    async (request) =>
      (await forward((client) => client.request(request, ListToolsResultSchema))) ?? {
        tools: await offlineToolList(),
      },
  );
  local.setRequestHandler(
    CallToolRequestSchema,
    async (request) =>
      (await forward((client) => client.request(request, CallToolResultSchema))) ??
      (refusal ? refused(refusal) : serviceDown(lastFailure)),
  );

  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
  });
  // The SDK's stdio transport does not watch for the end of stdin: the agent closing it ends the bridge.
  process.stdin.once('end', () => void local.close());
  await local.connect(new StdioServerTransport());
  await closed;
  // Read through a function: the compiler does not see that connect() above may have set it.
  const connected = (): Client | null => remote;
  await connected()?.close();
}

/** A tool result in the REST error body's shape, which every tool's output schema admits. */
function serviceDown(message: string): CallToolResult {
  const body = { error: 'service_unreachable', message };
  return { content: [{ type: 'text', text: message }], structuredContent: body, isError: true };
}

/** The service's refusal of the key, as the tool result of every call: its REST error body. */
function refused(body: Refusal): CallToolResult {
  const text = `${body.message} Set MOD97_API_KEY to a valid key (a rotated key is replaced by the new one), or unset it for the no-key trial.`;
  const structured = { ...body, message: text };
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    isError: true,
  };
}
