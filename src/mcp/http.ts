/**
 * MCP over Streamable HTTP at POST /mcp, stateless: every POST gets its own server and transport.
 *
 * No bypass: the /mcp request is authenticated by the same pipeline as any route (an unknown key
 * is 401 before any JSON-RPC), and a tool call is the REST request it mirrors, made with
 * `app.inject` carrying the caller's credentials, forwarded-for header and socket address. So the
 * trial, quota, refunds, attribution and counters are the REST route's own, and so is the answer:
 * its JSON is the tool's structured content and its X-Quota-* headers go on the /mcp answer.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../errors.ts';
import { KEY_META } from '../http/body.ts';
import { KEY_SHAPE_TEXT } from '../keys/secret.ts';
import { httpError } from '../http/errors.ts';
import { keyOrPaymentMessage } from '../payments/refusals.ts';
import { askIfMeant, nearestNames } from '../typing-slips.ts';
import { isRecord } from '../is-record.ts';
import type { ParamRefusal } from '../api/declaration.ts';
import type { Services } from '../services.ts';
import { MCP_SERVER_INFO, serverCard } from './server-card.ts';
import { buildTools, type Tool } from './tools.ts';
import { paymentHeaders, settlementMeta, withPaymentRequired } from './x402.ts';
import { WireError } from './wire-error.ts';
import { usageRoute } from '../api/keys.ts';

const FORWARDED = ['authorization', 'x-api-key', 'x-forwarded-for'] as const;
/**
 * A tool call's Idempotency-Key travels in its own `_meta` (one /mcp POST may carry several
 * calls, and an MCP client sets its HTTP headers once per connection, not per call).
 */
const IDEMPOTENCY_META = 'mod97/idempotency-key';
const REPLAYED_META = 'mod97/idempotent-replayed';
const QUOTA_HEADERS = [
  'x-quota-used',
  'x-quota-limit',
  'x-quota-remaining',
  'x-quota-month',
  'x-quota-exhausted',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
];

const INSTRUCTIONS =
  'mod97 validates IBANs and looks up banks. Send your API key in the Authorization: Bearer header of the MCP connection, or with each call in params._meta["mod97/api-key"]; without one, validate_iban runs on a small daily trial, and create_key gives you a free key to use that way at once. Every data tool draws on the same quota as the REST API; get_usage is free. To retry a call safely (charged once), send the same call with the same key in params._meta["mod97/idempotency-key"].';

// The SDK is slow to import: loaded by the first /mcp request, not at start-up.
const sdk = () =>
  Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);

type Headers = Record<string, string | string[] | number | undefined>;

function copyQuotaHeaders(from: Headers, to: ServerResponse): void {
  for (const name of QUOTA_HEADERS) {
    const value = from[name];
    if (value === undefined) to.removeHeader(name);
    else to.setHeader(name, value);
  }
}

/** The caller's credentials and address, as the REST route would have received them. */
function injectOptions(req: FastifyRequest) {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { headers, remoteAddress: req.socket.remoteAddress };
}

/** An answer with an image (`{payload, image: {media_type, data}}`) as the image and its text. */
function imageContent(body: Record<string, unknown>): CallToolResult['content'] {
  const image = isRecord(body.image) ? body.image : {};
  // a warning (the remittance text left out) is said beside the payload, where an agent reads it
  const warnings = (Array.isArray(body.warnings) ? body.warnings : []).flatMap((w) =>
    isRecord(w) ? [{ type: 'text' as const, text: `Warning (${String(w.code)}): ${String(w.message)}` }] : [],
  );
  return [
    { type: 'image', data: String(image.data ?? ''), mimeType: String(image.media_type ?? 'image/png') },
    { type: 'text', text: String(body.payload ?? '') },
    ...warnings,
  ];
}

/**
 * A 402 that offers a new key (the caller sent none) tells an agent how to get one here: the
 * create_key tool, then the key on each call in `_meta` or on the connection. Beside the REST
 * body's own fields, which keep their values.
 */
function withCreateKey(body: Record<string, unknown>): Record<string, unknown> {
  const options = Array.isArray(body.options) ? body.options : [];
  const offersKey = options.some((o) => isRecord(o) && o.type === 'generate_key');
  if (!offersKey) return body;
  return {
    ...body,
    message: `${String(body.message ?? '')} ${CREATE_KEY_HINT}`.trim(),
    options: options.map((o) => (isRecord(o) && o.type === 'generate_key' ? { ...o, tool: 'create_key' } : o)),
  };
}

/** The no-key refusal said of the tool the agent called, not of the REST route behind it. */
function saidOfTool(body: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(body.cause) || body.cause.reason !== 'key_or_payment_required') return body;
  return { ...body, message: keyOrPaymentMessage(Array.isArray(body.options) ? body.options : [], 'tool') };
}

/**
 * Why a call's own key is no key at all (not a string, or empty), naming the member that holds
 * it; null for a string, which the pipeline judges as any key. Its value is never repeated.
 */
function unusableCallKey(key: unknown): string | null {
  const member = `params._meta["${KEY_META}"]`;
  if (key === undefined) return null;
  if (typeof key !== 'string')
    return `${member} is not a string: send the API key there as a string, or leave the member out to use the connection's key. ${KEY_SHAPE_TEXT}`;
  if (key.trim() === '')
    return `${member} is empty: send the API key there, or leave the member out to use the connection's key; if the key comes from a variable, check that it is set.`;
  return null;
}

/**
 * A refusal as an agent reads it: a no-key 402 said of the tool with the way to a key here, and
 * a 401 for a call's unusable key naming the `_meta` member to fix, not an Authorization header.
 */
function toldOfTool(
  body: Record<string, unknown>,
  status: number,
  meta: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (status === 402) return withCreateKey(saidOfTool(body));
  const unusable = status === 401 ? unusableCallKey(meta?.[KEY_META]) : null;
  return unusable ? { ...body, message: unusable } : body;
}

const CREATE_KEY_HINT = `Without a key: call the create_key tool (free), then send its api_key with each call in params._meta["${KEY_META}"] (or as Authorization: Bearer on the connection).`;

/** `.` and `..` as a path segment are moved or dropped by every URL parser, encoded or not. */
const DOT_SEGMENT = /^\.{1,2}$/;

/** The route's answer, or the refusal of an argument that no request to it could carry. */
async function callTool(
  app: FastifyInstance,
  req: FastifyRequest,
  tool: Tool,
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
): Promise<{ refused: ParamRefusal } | { answer: Awaited<ReturnType<FastifyInstance['inject']>> }> {
  const { route } = tool;
  let url = route.url;
  if (route.input === 'params') {
    for (const param of url.match(/:\w+/g) ?? []) {
      const arg = tool.argOf(param.slice(1));
      const value = args[arg];
      if (typeof value !== 'string' || value === '')
        return { refused: { error: 'invalid_request', message: `Send \`${arg}\` as a non-empty string.` } };
      if (DOT_SEGMENT.test(value)) return { refused: tool.refuseParam(value) };
      // encodeURIComponent leaves `/`-free values whole; a `/` travels as %2F, a parameter's own.
      url = url.replace(param, encodeURIComponent(value));
    }
  }
  const forwarded = injectOptions(req);
  const headers: Record<string, string> = { ...forwarded.headers, ...paymentHeaders(meta) };
  // A key given with this one call stands in for the connection's. Anything but a string is sent
  // as an empty key: the route judges it as it judges an empty header (401, on every route, even
  // create_key's, which needs no key), and its 401 names the _meta member (toldOfTool).
  const callKey = meta?.[KEY_META];
  if (callKey !== undefined) {
    delete headers['x-api-key'];
    headers.authorization = `Bearer ${typeof callKey === 'string' ? callKey : ''}`;
  }
  const idempotencyKey = meta?.[IDEMPOTENCY_META];
  // Anything but a string is sent as an empty key, which the pipeline refuses with its own 400.
  if (idempotencyKey !== undefined)
    headers['idempotency-key'] = typeof idempotencyKey === 'string' ? idempotencyKey : '';
  const withBody = route.input === 'body';
  const answer = await app.inject({
    method: route.method,
    url,
    headers: withBody ? { ...headers, 'content-type': 'application/json' } : headers,
    payload: withBody ? JSON.stringify({ ...args, ...tool.route.declaration.mcp?.fixedArgs }) : undefined,
    remoteAddress: forwarded.remoteAddress,
  });
  return { answer };
}

export const mcpRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    let tools: Tool[] | null = null;
    const exhausted = new WeakSet<ServerResponse>();
    const toolList = () => {
      tools ??= buildTools(services.rails);
      return tools;
    };

    /** What an agent that named no tool of ours reads: the tool it most likely meant, if one is close. */
    const unknownTool = (name: string) => {
      const meant = nearestNames(
        name.toLowerCase(),
        toolList().map((t) => t.name),
      );
      return `Unknown tool: ${name}.${askIfMeant(meant)} tools/list names every tool.`;
    };

    async function toolResult(
      req: FastifyRequest,
      res: ServerResponse,
      name: string,
      args: Record<string, unknown>,
      meta: Record<string, unknown> | undefined,
    ) {
      const tool = toolList().find((t) => t.name === name);
      if (!tool) return null;
      const called = await callTool(app, req, tool, args, meta);
      if ('refused' in called) {
        const { error, message, ...details } = called.refused;
        const { body } = httpError(error, message, details);
        return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
      }
      const { answer } = called;
      copyQuotaHeaders(answer.headers, res);
      // X-Quota-Exhausted stays on the /mcp answer when any call of a batch was refused for quota.
      if (answer.headers['x-quota-exhausted']) exhausted.add(res);
      if (exhausted.has(res)) res.setHeader('x-quota-exhausted', 'true');
      // A created key is a secret: the /mcp answer carrying it is not stored either.
      if (answer.headers['cache-control'] === 'no-store') res.setHeader('cache-control', 'no-store');
      let served: Record<string, unknown>;
      try {
        served = answer.json();
      } catch {
        served = httpError('internal_error', 'The answer was not JSON.').body;
      }
      const refused = answer.statusCode >= 400;
      const body = refused ? toldOfTool(served, answer.statusCode, meta) : served;
      // With the x402 rail on, a refusal also says how to pay for the call (x402 over MCP).
      const content = refused ? withPaymentRequired(body, answer.headers) : body;
      const settlement = settlementMeta(answer.headers);
      const rewritten = content !== served;
      const replayed = answer.headers['idempotent-replayed'] === 'true' ? { [REPLAYED_META]: true } : undefined;
      return {
        content:
          !refused && tool.route.declaration.mcp?.content === 'image'
            ? imageContent(body)
            : [{ type: 'text', text: rewritten ? JSON.stringify(content) : answer.body }],
        structuredContent: content,
        isError: refused,
        ...(settlement || replayed ? { _meta: { ...settlement, ...replayed } } : {}),
      } satisfies CallToolResult;
    }

    // A browser page of another site (DNS rebinding included) is refused by the pipeline's
    // cross-site rule (http/cross-site.ts), the key routes' own.
    const options = {
      config: { access: { auth: 'optional' as const }, crossSite: 'mcp' as const, keyInMeta: true as const },
      schema: { hide: true },
    };
    app.post('/mcp', options, async (req, reply) => {
      const [{ Server }, { StreamableHTTPServerTransport }, types] = await sdk();
      const server = new Server(MCP_SERVER_INFO, {
        capabilities: { tools: { listChanged: false } },
        instructions: INSTRUCTIONS,
      });
      server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
        tools: toolList().map((t) => t.definition),
      }));
      server.setRequestHandler(types.CallToolRequestSchema, async ({ params }) => {
        const result = await toolResult(req, reply.raw, params.name, params.arguments ?? {}, params._meta);
        if (!result) throw new WireError(types.ErrorCode.InvalidParams, unknownTool(params.name));
        return result;
      });

      // An authenticated answer carries the key's X-Quota-* headers; a tool call's are its route's.
      const messages = Array.isArray(req.body) ? req.body : [req.body];
      const callsTool = messages.some(
        (m: unknown) => typeof m === 'object' && m !== null && 'method' in m && m.method === 'tools/call',
      );
      if (req.caller.key && !callsTool) {
        const usage = await app.inject({ method: usageRoute.method, url: usageRoute.url, ...injectOptions(req) });
        copyQuotaHeaders(usage.headers, reply.raw);
      }

      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // From here the SDK writes the answer, so the pipeline's own answer hooks do not run.
      reply.hijack();
      reply.raw.setHeader('x-content-type-options', 'nosniff');
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        // The body was read and parsed by the pipeline; an absent one is no JSON-RPC message.
        await transport.handleRequest(req.raw, reply.raw, req.body ?? null);
      } catch (err) {
        req.log.error({ err }, 'mcp: request failed');
        if (!reply.raw.headersSent) {
          const { status, body } = httpError('internal_error', 'Something went wrong on our side.');
          reply.raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
          reply.raw.end(JSON.stringify(body));
        } else reply.raw.end();
      }
    });

    // The server card (server-card.ts): public metadata, readable from any page (the MCP
    // discovery draft asks for CORS), cached for an hour. Also at the draft's own place.
    const card = () => serverCard(services.config.publicUrl, services.rails);
    for (const url of ['/.well-known/mcp/server-card.json', '/mcp/server-card']) {
      app.get(url, { schema: { hide: true } }, async (_req, reply) => {
        reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
        return card();
      });
    }

    // Stateless: no stream to open (GET) and no session to end (DELETE).
    app.route({
      method: ['GET', 'DELETE'],
      url: '/mcp',
      schema: { hide: true },
      handler: async (_req, reply) => {
        reply.header('allow', 'POST');
        throw new DomainError('method_not_allowed', 'This MCP server is stateless: send every message by POST.');
      },
    });
  };
