/**
 * `mod97 mcp`: an MCP server on stdio that forwards tools/list and tools/call to a mod97 service's
 * /mcp, so an agent on a laptop uses a hosted mod97. It holds no tools of its own: the service
 * meters every call, and its answers (refusals included) come back unchanged.
 *
 * A service that cannot be reached does not stop it: it starts anyway, lists the tools the
 * service would (tool-list.ts), and answers each call with an error naming MOD97_URL, trying the
 * service again on every request. Nor does a service that refuses the key (401: a mistyped or
 * rotated MOD97_API_KEY): each call then answers that refusal as a tool error, so the agent can
 * tell its user what to fix instead of seeing the server vanish, except a call that carries its
 * own key, which is served on it.
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
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { KEY_META } from '../http/body.ts';
import { MCP_SERVER_INFO } from './server-card.ts';
import { offlineToolList } from './tool-list.ts';
import { passedOn } from './wire-error.ts';
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
  'mod97 validates IBANs and looks up banks. The mod97 service refused the key in MOD97_API_KEY (unknown, rotated or revoked): every tool call answers that refusal until the variable holds a valid key, except a call that carries its own key in params._meta["mod97/api-key"].';

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

/**
 * One connection to the service's /mcp, with `apiKey` on it or none: connected on first use,
 * and again after the service went away; what stopped it last is kept to answer with.
 */
interface Link {
  /** The service's refusal of the connection (its key), until a connection succeeds. */
  refusal: Refusal | null;
  lastFailure: string;
  /** The connected client, or null when the service cannot be reached or refuses the key. */
  connect(): Promise<Client | null>;
  /** Forwards a request; a service gone away is forgotten, to be tried again next time. */
  forward<T>(send: (client: Client) => Promise<T>): Promise<T | null>;
  close(): Promise<void>;
}

function link(endpoint: URL, url: string, apiKey: string | undefined): Link {
  let remote: Client | null = null;
  const state: Link = {
    refusal: null,
    lastFailure: '',
    async connect() {
      if (remote) return remote;
      const client = new Client({ name: 'mod97-stdio-bridge', version: '1.0.0' });
      try {
        await client.connect(
          new StreamableHTTPClientTransport(endpoint, {
            requestInit: apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : undefined,
          }),
        );
      } catch (err) {
        state.refusal = refusalOf(err, url);
        if (!state.refusal) state.lastFailure = unreachable(err, url);
        return null;
      }
      state.refusal = null;
      remote = client;
      return client;
    },
    async forward(send) {
      const client = await state.connect();
      if (!client) return null;
      try {
        return await send(client);
      } catch (err) {
        // The key rotated while the bridge ran: answered like a key refused at the start.
        state.refusal = refusalOf(err, url);
        if (!state.refusal && !(err instanceof TypeError || causeOf(err)))
          throw err instanceof McpError ? passedOn(err) : err;
        if (!state.refusal) state.lastFailure = unreachable(err, url);
        remote = null;
        void client.close();
        return null;
      }
    },
    async close() {
      await remote?.close();
    },
  };
  return state;
}

/** Runs until stdin closes. */
export async function runStdioBridge(opts: StdioBridgeOptions): Promise<void> {
  const endpoint = new URL('/mcp', opts.url);
  const keyed = link(endpoint, opts.url, opts.apiKey);
  // A call that carries its own key (params._meta["mod97/api-key"]) needs none on the connection:
  // once the service refuses MOD97_API_KEY, such calls go over a connection without it.
  // Connected only when first used.
  const ownKeyed = link(endpoint, opts.url, undefined);
  const first = await keyed.connect();
  const startRefusal = keyed.refusal;
  if (startRefusal) {
    process.stderr.write(
      `mod97 mcp: ${startRefusal.error}: ${startRefusal.message} Starting anyway; tool calls answer this refusal until MOD97_API_KEY holds a valid key (or send their own key in params._meta["${KEY_META}"]).\n`,
    );
  } else if (!first)
    process.stderr.write(`mod97 mcp: ${keyed.lastFailure} Starting anyway; tool calls answer this error.\n`);
  // This package's name and version, whatever the service's state at the start (server.json names
  // the npm package `mod97` of this version for `mod97 mcp`).
  const local = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: first ? first.getInstructions() : startRefusal ? REFUSED_INSTRUCTIONS : OFFLINE_INSTRUCTIONS,
  });
  // Passed through as they are: the client's own checks (output schemas) belong to the agent's side.
  local.setRequestHandler(
    ListToolsRequestSchema,
    async (request) =>
      (await keyed.forward((client) => client.request(request, ListToolsResultSchema))) ?? {
        tools: await offlineToolList(),
      },
  );
  local.setRequestHandler(CallToolRequestSchema, async (request) => {
    const send = (client: Client) => client.request(request, CallToolResultSchema);
    const answer = await keyed.forward(send);
    if (answer) return answer;
    const ownKey = request.params._meta?.[KEY_META] !== undefined;
    if (ownKey && keyed.refusal?.error === 'invalid_api_key') {
      const answered = await ownKeyed.forward(send);
      if (answered) return answered;
      return ownKeyed.refusal ? refused(ownKeyed.refusal) : serviceDown(ownKeyed.lastFailure);
    }
    return keyed.refusal ? refused(keyed.refusal) : serviceDown(keyed.lastFailure);
  });

  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
  });
  // The SDK's stdio transport does not watch for the end of stdin: the agent closing it ends the bridge.
  process.stdin.once('end', () => void local.close());
  await local.connect(new StdioServerTransport());
  await closed;
  await Promise.all([keyed.close(), ownKeyed.close()]);
}

/** A tool result in the REST error body's shape, which every tool's output schema admits. */
function serviceDown(message: string): CallToolResult {
  const body = { error: 'service_unreachable', message };
  return { content: [{ type: 'text', text: message }], structuredContent: body, isError: true };
}

/** The service's refusal of the /mcp request, as the tool result: its REST error body. */
function refused(body: Refusal): CallToolResult {
  // Only a refused key is MOD97_API_KEY's to fix; a refusal of the call itself (a key in its arguments) is not.
  const text =
    body.error === 'invalid_api_key'
      ? `${body.message} Set MOD97_API_KEY to a valid key (a rotated key is replaced by the new one), or unset it for the no-key trial.`
      : body.message;
  const structured = { ...body, message: text };
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    isError: true,
  };
}
