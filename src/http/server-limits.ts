/**
 * What the HTTP server guards before and around the request pipeline:
 * - time: a request's headers must all arrive within `headersMs` of its first byte (Node's own
 *   headersTimeout), and its body within `bodyMs` of the headers (a timer per request that has a
 *   body): otherwise 408 `request_timeout` and the socket is closed, so trickling clients cannot
 *   hold sockets;
 * - size: more than `headerLines` header lines is 431 `headers_too_large` (Node keeps only the
 *   first maxHeadersCount and drops the rest silently, a later Content-Type included);
 * - requests Node's parser refuses get the JSON error body whenever the socket can still be
 *   written, and the request they cut short is never charged, even if a route had started on it;
 * - a missing Host (400) and an unknown Expect (417), which Node would answer without a body;
 * - two Host headers, a transfer coding other than `chunked` (400) and any Content-Encoding (415);
 * - HEAD on a metered route is 405 with `Allow: GET` and costs nothing (Fastify exposes a HEAD
 *   route for every GET);
 * - `X-Content-Type-Options: nosniff` on every answer;
 * - a path parameter of any length that fits in the request line reaches its route, whose own
 *   validation answers it (400 `invalid_bic` with `reason: length`), not the router's 414;
 * - once shutdown begins, `Connection: close` on every answer and no connection left idle.
 */
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { DomainError, type ErrorCode } from '../errors.ts';
import { LIMITS } from '../plans.ts';
import { httpError } from './errors.ts';
import { drainBeforeClose } from './lingering-close.ts';

/**
 * node:http's status texts, required rather than imported: an ES module import of node:http
 * builds its namespace by reading every export, and three of them (WebSocket, CloseEvent,
 * MessageEvent) load undici, about 25 ms of CPU at start that the server never uses.
 */
const { STATUS_CODES }: typeof import('node:http') = createRequire(import.meta.url)('node:http');

export interface EdgeLimits {
  /** All headers within this many ms of the request's first byte. */
  headersMs: number;
  /** The whole body within this many ms of the headers. */
  bodyMs: number;
  /** Header lines allowed, the request line not counted. */
  headerLines: number;
  /** After a 413 answered while the body is still arriving: read and discard for this long... */
  drainMs: number;
  /** ...or this many bytes, then close. */
  drainBytes: number;
}

export const EDGE_LIMITS: EdgeLimits = {
  headersMs: 30_000,
  bodyMs: 30_000,
  headerLines: 200,
  drainMs: 5_000,
  drainBytes: 8 * 1024 * 1024,
};

/**
 * The router's bound on a path parameter, which would otherwise answer one over 100 characters
 * 414 with a vague body, before the pipeline (no quota headers). A parameter is bounded where it
 * arrives: over HTTP, Node's parser holds the request line and headers to 16 KiB (more is 431);
 * from an MCP tool call (run through `app.inject`), by the 1 MiB body that carried it.
 */
const MAX_PARAM_LENGTH = LIMITS.bodyBytes;

const REFUSED = Symbol('refused_by_parser');
type MarkedSocket = Socket & { [REFUSED]?: boolean; _httpMessage?: ServerResponse | null };

const MESSAGES = {
  request_timeout: 'The request did not arrive in time: its headers and then its body each have 30 seconds.',
  headers_too_large: 'The request has too many or too large headers (at most 200 lines, 16 KiB).',
  invalid_request: 'The request is not valid HTTP.',
  expectation_failed: 'Only "Expect: 100-continue" is supported.',
  method_not_allowed: 'CONNECT is not served: this is an HTTP API, not a proxy.',
} satisfies Partial<Record<ErrorCode, string>>;

/** Options for the Fastify constructor: the Node server's own limits and parser refusals. */
export function edgeServerOptions(limits: EdgeLimits): {
  requestTimeout: number;
  routerOptions: { maxParamLength: number };
  http: ServerOptions;
  clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => void;
} {
  return {
    // The body has its own deadline, counted from the headers (below); Node's counts from the first byte.
    requestTimeout: 0,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    http: {
      headersTimeout: limits.headersMs,
      requestTimeout: 0,
      // Node checks its deadlines on this interval: a tenth of the deadline, at most 1 s late.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.round(limits.headersMs / 10))),
      // Answered with the error body by the hook below rather than by Node with none.
      requireHostHeader: false,
    },
    clientErrorHandler: (err, socket) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return void socket.destroy();
      const code =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'request_timeout'
          : err.code === 'HPE_HEADER_OVERFLOW'
            ? 'headers_too_large'
            : 'invalid_request';
      refuse(socket, code);
    },
  };
}

/**
 * Answers on the socket itself, outside Fastify, and closes it. The request in flight on it, if
 * any, is marked so that the pipeline neither charges it nor runs its handler.
 */
function refuse(socket: MarkedSocket, code: keyof typeof MESSAGES): void {
  socket[REFUSED] = true;
  const inFlight = socket._httpMessage;
  if (!socket.writable || inFlight?.headersSent) return void socket.destroy();
  // The request in flight arrived whole (bytes after it were refused): its route answers, turned
  // into this refusal by the hooks below unless its answer was already on its way, then closes.
  if (inFlight?.req.complete) return void inFlight.setHeader('connection', 'close');
  const { status, body: error } = httpError(code, MESSAGES[code]);
  const body = JSON.stringify(error);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    // Closed once the answer is out: a half-open socket would stay as long as the client likes.
    () => socket.destroy(),
  );
}

const refusedByParser = (req: FastifyRequest) => {
  const socket: MarkedSocket | null = req.raw.socket;
  return socket?.[REFUSED] === true;
};
const refusal = () => new DomainError('invalid_request', MESSAGES.invalid_request);

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Requests that two parts of a chain could read differently, refused rather than guessed at:
 * two Host headers (Node keeps the first; a proxy may have routed by the second), a transfer
 * coding other than `chunked` (Node accepts `gzip, chunked` and would hand the gzip bytes on as
 * the body), and a Content-Encoding, which no route decodes (it would be read as if absent).
 */
function framingRefusal(raw: IncomingMessage): DomainError | null {
  let hosts = 0;
  for (let i = 0; i < raw.rawHeaders.length; i += 2) if (raw.rawHeaders[i].toLowerCase() === 'host') hosts++;
  if (hosts > 1) return new DomainError('invalid_request', 'The request sends more than one Host header.');
  const coding = raw.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked')
    return new DomainError(
      'invalid_request',
      `Transfer-Encoding "${coding}" is not served: send the body as is, or chunked.`,
    );
  if (raw.headers['content-encoding'] !== undefined)
    return new DomainError(
      'unsupported_media_type',
      'Content-Encoding is not served: send the body uncompressed, as Content-Type: application/json.',
    );
  return null;
}

/** Registered before any other hook, so that these refusals come first and cost nothing. */
export function registerServerLimits(app: FastifyInstance, limits: EdgeLimits): void {
  const server = app.server;
  // One more than allowed, to tell a request with too many lines from one with exactly enough.
  server.maxHeadersCount = limits.headerLines + 1;

  // Shutting down (app.close(), on SIGTERM): every answer from then on says `Connection: close`
  // and Node closes its connection once it is written, and a connection whose answer had already
  // left when shutdown began is closed once it is idle, by a sweep every 50 ms until the server
  // has closed (nothing is added to a request's own path). Otherwise a keep-alive connection
  // whose request was in flight stays open for the keep-alive timeout (72 s), and the process
  // with it (docs/operations.md).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    const sweep = setInterval(() => server.closeIdleConnections(), 50).unref();
    server.once('close', () => clearInterval(sweep));
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (!hasBody(req)) return;
    const timer = setTimeout(() => {
      if (!req.complete && !res.headersSent) refuse(req.socket, 'request_timeout');
    }, limits.bodyMs);
    res.once('close', () => clearTimeout(timer));
  });

  // Node hands CONNECT to this event, never to a route; with no listener it drops the socket unanswered.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => refuse(socket, 'method_not_allowed'));

  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const { status, body: error } = httpError('expectation_failed', MESSAGES.expectation_failed);
    const body = JSON.stringify(error);
    res
      .writeHead(status, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'X-Content-Type-Options': 'nosniff',
        Connection: 'close',
      })
      .end(body);
  });

  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const raw = req.raw;
    if (raw.rawHeaders.length > 2 * limits.headerLines) {
      reply.header('connection', 'close');
      return done(new DomainError('headers_too_large', MESSAGES.headers_too_large));
    }
    if (raw.headers.host === undefined && raw.httpVersion === '1.1') {
      // Refused as Node's parser refuses a request (docs/api.md, "Limits of the HTTP edge"): closed after.
      reply.header('connection', 'close');
      return done(new DomainError('invalid_request', 'An HTTP/1.1 request must send a Host header.'));
    }
    const framing = framingRefusal(raw);
    if (framing) {
      // The body, if any, is left unread: the socket cannot be trusted to frame a next request.
      reply.header('connection', 'close');
      return done(framing);
    }
    const config = req.routeOptions.config;
    if (req.method === 'HEAD' && (config?.access?.meter || config?.x402Price)) {
      reply.header('allow', 'GET');
      return done(new DomainError('method_not_allowed', 'HEAD is not served on data routes: send GET.'));
    }
    done();
  });

  // The parser may refuse a request after its route started: before the charge, before the handler.
  const stopIfRefused = (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) =>
    done(refusedByParser(req) ? refusal() : undefined);
  app.addHook('preValidation', stopIfRefused);
  app.addHook('preHandler', stopIfRefused);

  app.addHook('onSend', (req, reply, payload, done) => {
    // Registered before metering's own onSend: a 4xx here is refunded there and never settled by x402.
    if (refusedByParser(req) && reply.statusCode < 400) {
      const { status, body } = httpError('invalid_request', MESSAGES.invalid_request);
      reply.code(status).removeHeader('content-length').header('content-type', 'application/json; charset=utf-8');
      return done(null, JSON.stringify(body));
    }
    if (reply.statusCode === 413 && !req.raw.complete) drainBeforeClose(req.raw, limits);
    done(null, payload);
  });
}
