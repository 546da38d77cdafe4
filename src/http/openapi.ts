/**
 * What the OpenAPI document says about every route beyond its schemas, derived in one place
 * from the route's declaration (src/api/declaration.ts, carried in `config.declaration`):
 * `security` from its access rule (so generated clients send the key), an operationId and a tag,
 * its summary and description from its guide, the error answers with `error` as the enum of the
 * codes the route can answer (its own `errors`, and those the pipeline adds from its access
 * rule), its example request and answer, the quota headers, and the few facts a JSON Schema of
 * the body cannot state by itself (an optional body, "exactly one of", the raw webhook body, a
 * page for browsers).
 */
import type { RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { DocumentExtras, RouteDeclaration } from '../api/declaration.ts';
import type { RouteExample } from '../api/route-example.ts';
import { StringEnum } from '../api/schemas.ts';
import type { ErrorCode } from '../errors.ts';
import { ErrorAnswer, PaymentRequiredAnswer } from '../api/error-schemas.ts';
import { LIMITS } from '../plans.ts';
import { codeSamples } from './code-samples.ts';
import { hoistTitled } from './openapi-components.ts';
import { MEANING, RETRY_AFTER, STATUS } from './errors.ts';
import { isRecord } from '../is-record.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's declaration, for a route of the API (src/routes/serve.ts puts it here). */
    declaration?: RouteDeclaration;
  }
}

const KEY_SCHEMES: Record<string, string[]>[] = [{ bearer: [] }, { apiKey: [] }];
/** The route's facts that finish its operation once @fastify/swagger has built it (documentBodies). */
const EXAMPLE = 'x-mod97-example';
const EXTRAS = 'x-mod97-extras';

/**
 * Answers any route can give whatever its input: a key-shaped value in its URL or a URL that
 * cannot be decoded (400), a request or headers too slow (408), an `Expect` it cannot meet (417),
 * headers too large (431), a fault of ours (500), and a database that cannot be reached (503).
 */
const ANY_ROUTE: ErrorCode[] = [
  'key_in_url',
  'invalid_request',
  'request_timeout',
  'expectation_failed',
  'headers_too_large',
  'internal_error',
  'storage_unavailable',
];

/** The codes the pipeline (src/http/pipeline.ts) can answer on this route, from its config. */
function pipelineCodes(route: RouteOptions): ErrorCode[] {
  const config = route.config ?? {};
  const codes: ErrorCode[] = [...ANY_ROUTE];
  if (route.method === 'POST') {
    codes.push('payload_too_large', 'invalid_json');
    // A route sold only by x402 reads no body, so it never answers 415.
    if (!config.x402Required) codes.push('unsupported_media_type');
  }
  if (config.crossSite) codes.push('cross_site_request');
  const access = config.access;
  if (access) codes.push('key_in_body');
  if (access?.auth === 'key') codes.push('missing_api_key');
  // A credential header sent is judged on every route, one that needs no key included.
  if (access) codes.push('invalid_api_key');
  if (access?.meter) codes.push('payment_required', 'quota_exhausted');
  if (config.idempotent)
    codes.push(
      'key_in_idempotency_key',
      'idempotency_in_progress',
      'idempotency_answer_not_kept',
      'idempotency_key_reused',
    );
  if (config.x402Required || (access?.meter && config.x402Price)) {
    codes.push('payment_required', 'invalid_payment', 'payments_unavailable');
  }
  return codes;
}

const errorAnswer = (codes: ErrorCode[]) =>
  Type.Object(
    { error: StringEnum(codes), message: Type.String() },
    { additionalProperties: true, description: 'An error: a machine code and a sentence for people.' },
  );

/** "Key optional" only where a call without a key succeeds: the validate trial and the free routes. */
function securityOf(route: RouteOptions): Record<string, string[]>[] {
  const config = route.config ?? {};
  const auth = config.access?.auth ?? 'none';
  if (config.x402Required) return [{ x402: [] }, ...KEY_SCHEMES.map((s) => ({ x402: [], ...s }))];
  if (auth === 'key') return KEY_SCHEMES;
  if (auth === 'none') return [];
  const meter = config.access?.meter;
  if (!meter || meter.trial) return [{}, ...KEY_SCHEMES];
  // A metered route without a trial: a key, or an x402 payment when that rail is on.
  return config.x402Price ? [...KEY_SCHEMES, { x402: [] }] : KEY_SCHEMES;
}

/** `POST /v1/keys/generate` → `postKeysGenerate`, `GET /v1/bic/:code` → `getBicByCode`. */
function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((s) => s && s !== 'v1')
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s))
    .flatMap((s) => s.split(/[-_]/));
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** The tags, in the order /docs and generated clients show them. */
export const TAGS = [
  { name: 'IBAN', description: 'Validate IBANs, one or many, and build them from national account details.' },
  { name: 'Lookups', description: 'Banks by BIC, Swiss clearing members, and compliance screening.' },
  {
    name: 'Transfers',
    description: 'Payment references (RF, Swiss QR reference, national ones) and whole payment instructions.',
  },
  { name: 'Keys', description: 'Free keys: create, see usage, rotate, claim with an e-mail address.' },
  { name: 'Payments', description: 'Credit packs and Pro by card (Stripe), credits by x402.' },
];

function tagOf(url: string): string {
  const [, , area, second] = url.split('/');
  if (area === 'iban') return second === 'compliance' ? 'Lookups' : 'IBAN';
  if (area === 'bic' || area === 'ch') return 'Lookups';
  if (area === 'reference' || area === 'payment') return 'Transfers';
  if (area === 'keys') return 'Keys';
  if (area === 'card' || area === 'credits') return 'Payments';
  return area ? area.charAt(0).toUpperCase() + area.slice(1) : 'Other';
}

/** Completes a declared route's schema for the document; other routes (pages, /mcp) are hidden. */
export function documentRoute(route: RouteOptions): void {
  const { schema } = route;
  const declaration = route.config?.declaration;
  if (!declaration || !schema || schema.hide) return;
  const method = String(route.method);
  Object.assign(schema, {
    security: securityOf(route),
    operationId: declaration.operationId ?? operationIdOf(method, route.url),
    tags: [tagOf(route.url)],
    summary: declaration.guide.title,
    description: declaration.guide.purpose,
    [EXAMPLE]: declaration.example,
    [EXTRAS]: extrasOf(declaration),
  });
  const declared = schema.response;
  const responses: Record<string, unknown> = typeof declared === 'object' && declared !== null ? { ...declared } : {};
  const codes = new Set([...pipelineCodes(route), ...declaration.errors]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS[code], [...(byStatus.get(STATUS[code]) ?? []), code]);
  for (const [status, list] of byStatus) responses[status] = errorAnswer(list);
  schema.response = responses;
  if (route.config?.idempotent) documentIdempotencyKey(route);
}

/** The declaration's facts about the request body that its schema cannot state. */
const extrasOf = (declaration: RouteDeclaration): Extras => ({
  ...declaration.document,
  ...(declaration.exactlyOneOf && { exactlyOneOf: declaration.exactlyOneOf }),
});

const IDEMPOTENCY_KEY_HEADER = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      pattern: '^[\\x21-\\x7e]{1,255}$',
      example: '7d1f2b8e-4c1a-4f2e-9a7b-3e5d6c8f0a12',
      description:
        'Makes a retry safe: the same key, method, path and body within 24 hours get the first 2xx answer again (with Idempotent-Replayed: true), charged nothing. A UUID per request is a good choice.',
    },
  },
};

/**
 * Every metered POST takes an Idempotency-Key (http/idempotency.ts): 409 while its first request
 * is being answered, 422 when it was used for another request. The header is declared for the
 * document only (a swagger transform), so Fastify does not validate headers on every call: the
 * pipeline judges it, with its own message.
 */
function documentIdempotencyKey(route: RouteOptions): void {
  route.config = {
    ...route.config,
    swaggerTransform: ({ schema, url }) => ({
      schema: { ...schema, headers: IDEMPOTENCY_KEY_HEADER, response: withReplayHeader(schema.response) },
      url,
    }),
  };
}

/** The success answer may be a replay: it then says so in Idempotent-Replayed. */
function withReplayHeader(response: unknown): unknown {
  if (typeof response !== 'object' || response === null) return response;
  const replayed = {
    type: 'string',
    enum: ['true'],
    description: 'Present on a replay: the first answer to this Idempotency-Key, sent again and charged nothing.',
  };
  return Object.fromEntries(
    Object.entries(response).map(([status, answer]) =>
      status === '200' && typeof answer === 'object' && answer !== null
        ? [status, { ...answer, headers: { 'Idempotent-Replayed': replayed } }]
        : [status, answer],
    ),
  );
}

type JsonSchema = Record<string, unknown>;
type Extras = DocumentExtras & { exactlyOneOf?: readonly string[] };
type Media = {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
};
type Response = { description?: string; headers?: Record<string, unknown>; content?: Record<string, Media> };
type RequestBody = { required?: boolean; description?: string; content?: Record<string, Media> };
type Operation = {
  parameters?: { name: string; in: string; example?: unknown; schema?: { example?: unknown } }[];
  'x-codeSamples'?: unknown;
  requestBody?: RequestBody;
  responses?: Record<string, Response>;
  security?: Record<string, unknown>[];
  [EXAMPLE]?: RouteExample;
  [EXTRAS]?: Extras;
};
type Doc = {
  info?: Record<string, unknown>;
  tags?: unknown[];
  servers?: { url: string }[];
  components?: Record<string, Record<string, unknown>>;
  paths?: Record<string, Record<string, Operation>>;
};

const plain = (text: string) => text.replace(/`/g, '');

/** The description the document carries: it stands alone (no file of the repository named). */
export const API_DESCRIPTION =
  'IBAN validation and bank lookups with the source and date of every answer. ' +
  'Send a key as `Authorization: Bearer <key>` (or `X-API-Key`), never in a URL or a body; a free key comes from ' +
  '`POST /v1/keys/generate`. `POST /v1/iban/validate` also answers without a key, 25 times a day per network. ' +
  'Every error answers `{"error": "<code>", "message": "<sentence>"}`; each operation lists the codes it can answer. ' +
  'Answers to a request with a valid key carry the X-Quota-* headers.';

/** The quota headers (docs/api.md, "Quota headers"), declared once and referred to by each answer. */
const QUOTA_HEADERS: Record<string, { description: string; schema: JsonSchema }> = {
  'X-Quota-Used': {
    description: 'Units used in the governing period (credits keys: credits spent). Only with a valid key.',
    schema: { type: 'integer' },
  },
  'X-Quota-Limit': {
    description: 'The governing cap (credits keys: credits bought in total). Only with a valid key.',
    schema: { type: 'integer' },
  },
  'X-Quota-Remaining': {
    description: '`limit - used` (credits keys: the balance). Only with a valid key.',
    schema: { type: 'integer' },
  },
  'X-Quota-Month': {
    description: 'The current UTC month, YYYY-MM. Only with a valid key.',
    schema: { type: 'string' },
  },
};
const EXHAUSTED_HEADER = {
  'X-Quota-Exhausted': {
    description: '`true`, only on a quota-exhausted 402.',
    schema: { type: 'string', enum: ['true'] },
  },
};
/** The IETF rate-limit headers (docs/api.md, "Rate-limit headers"), beside the quota headers. */
const RATE_HEADERS: Record<string, { description: string; schema: JsonSchema }> = {
  'RateLimit-Limit': {
    description: "The governing cap of the key, or the no-key trial's daily 25.",
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': { description: 'Units left before the cap.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': {
    description:
      'Seconds until the balance resets: the next UTC month for monthly bases, the next UTC day for the trial. Absent where it never resets (lifetime, credits).',
    schema: { type: 'integer', minimum: 0 },
  },
};
const RETRY_AFTER_429 = {
  description: 'Seconds until the limit lifts (the next UTC day: every 429 refuses a per-day limit).',
  required: true,
  schema: { type: 'integer', minimum: 0 },
};

/**
 * Retry-After on an error answer whose codes send it (errors.ts, RETRY_AFTER): `1 with
 * idempotency_in_progress` on a 409, `5 with storage_unavailable` on a 503; required only when
 * every code of the status sends it. Undefined when none does.
 */
function retryAfterOf(codes: readonly string[]): Record<string, unknown> | undefined {
  const sent = Object.entries(RETRY_AFTER).filter(([code]) => codes.includes(code));
  if (sent.length === 0) return undefined;
  const which = sent.map(([code, seconds]) => `${seconds} with \`${code}\``).join(', ');
  const others = sent.length < codes.length ? ' Not sent with the other codes of this status.' : '';
  return {
    description: `Seconds to wait before sending the request again: ${which}.${others}`,
    required: sent.length === codes.length,
    schema: { type: 'integer', minimum: 0 },
  };
}

/** The ways a caller proves it may call: a key in one of two headers, or an x402 payment. */
export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'The API key: `Authorization: Bearer <key>`.' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key, in the other header.' },
  x402: {
    type: 'apiKey',
    in: 'header',
    name: 'PAYMENT-SIGNATURE',
    description: 'An x402 payment for this one call, when the x402 rail is on; a 402 answer carries the requirements.',
  },
} as const;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const STATUS_DESCRIPTION: Record<string, string> = {
  400: 'Bad request: the request cannot be used as sent.',
  401: 'The key is missing or not valid.',
  402: 'Payment or quota needed.',
  403: 'Refused.',
  404: 'Not found.',
  405: 'Method not allowed.',
  408: 'The request was too slow.',
  409: 'Conflict with the state of the key or address.',
  410: 'Gone: shown once already.',
  413: 'The body is too large.',
  415: 'The body is not JSON.',
  417: 'The Expect header cannot be met.',
  429: 'Too many for today.',
  431: 'The headers are too large.',
  500: 'A fault of ours; nothing was charged.',
  502: 'A payment provider failed; nothing was charged.',
  503: 'Unavailable for now; try again.',
};

/** The whole document, finished: components, tags, examples, error answers, headers. */
export function documentBodies<T>(doc: T): T {
  const d = doc as Doc;
  d.info = { ...d.info, description: API_DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } };
  d.tags = TAGS;
  const components = (d.components ??= {});
  components.headers = { ...components.headers, ...QUOTA_HEADERS, ...EXHAUSTED_HEADER, ...RATE_HEADERS };
  const schemas = (components.schemas ??= {});
  for (const operations of Object.values(d.paths ?? {})) {
    for (const op of Object.values(operations)) {
      finishOperation(op, d.servers?.[0]?.url ?? '');
      nameBodies(op, schemas);
    }
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return doc;
}

/** Every body schema of the operation, as `$ref`s to its titled components (openapi-components.ts). */
function nameBodies(op: Operation, schemas: Record<string, unknown>): void {
  const media = [
    ...Object.values(op.requestBody?.content ?? {}),
    ...Object.values(op.responses ?? {}).flatMap((response) => Object.values(response.content ?? {})),
  ];
  for (const m of media) if (m.schema) m.schema = hoistTitled(m.schema, schemas);
}

/** A plain copy of a TypeBox schema, for the document. */
const plainSchema = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema));
const ERROR_SCHEMA = plainSchema(ErrorAnswer);
const PAYMENT_REQUIRED_SCHEMA = plainSchema(PaymentRequiredAnswer);

function finishOperation(op: Operation, base: string): void {
  const example = op[EXAMPLE];
  delete op[EXAMPLE];
  const extras = op[EXTRAS];
  delete op[EXTRAS];
  if (extras) applyExtras(op, extras);
  const keyed = op.security?.some((s) => 'bearer' in s) ?? false;
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const media = response.content?.['application/json'];
    const enumOf = errorEnumOf(media?.schema);
    if (media && enumOf && Number(status) >= 400) {
      response.description = STATUS_DESCRIPTION[status] ?? response.description;
      // The body's named schema, narrowed to the codes this operation answers with this status.
      const named = status === '402' ? PAYMENT_REQUIRED_SCHEMA : ERROR_SCHEMA;
      media.schema = { allOf: [named, { properties: { error: { enum: enumOf } } }] };
      media.examples = Object.fromEntries(
        enumOf.map((code) => [
          code,
          {
            summary: plain(MEANINGS.get(code) ?? code),
            value: { error: code, message: exampleMessage(code), ...exampleDetails(code, base) },
          },
        ]),
      );
    }
    if (status === '429') response.headers = { ...response.headers, 'Retry-After': RETRY_AFTER_429 };
    else if (enumOf && Number(status) >= 400) {
      const retryAfter = retryAfterOf(enumOf);
      if (retryAfter) response.headers = { ...response.headers, 'Retry-After': retryAfter };
    }
    if (keyed) {
      const names = [...Object.keys(QUOTA_HEADERS), ...Object.keys(RATE_HEADERS)];
      if (status === '402') names.push('X-Quota-Exhausted');
      response.headers = { ...response.headers, ...Object.fromEntries(names.map((n) => [n, ref('headers', n)])) };
    }
  }
  // A header declared with an example in its schema (Idempotency-Key) shows it on the parameter too.
  for (const parameter of op.parameters ?? []) parameter.example ??= parameter.schema?.example;
  if (!example) return;
  const answer = op.responses?.[String(example.status)]?.content?.['application/json'];
  if (answer) answer.example = example.answer;
  const body = op.requestBody?.content?.['application/json'];
  if (body && example.body !== undefined) body.example = example.body;
  const sent = new URL(example.path, 'http://x');
  for (const parameter of op.parameters ?? []) {
    const value = parameter.in === 'query' ? sent.searchParams.get(parameter.name) : sent.pathname.split('/').at(-1);
    if (value !== null && value !== undefined && (parameter.in === 'query' || parameter.in === 'path')) {
      parameter.example = value;
    }
  }
  op['x-codeSamples'] = codeSamples(example, base);
}

/** The codes an error answer's schema lists (`error.enum`, as documentRoute wrote it). */
function errorEnumOf(schema: JsonSchema | undefined): string[] | undefined {
  const error = isRecord(schema?.properties) ? schema.properties.error : undefined;
  const values = isRecord(error) ? error.enum : undefined;
  return Array.isArray(values) ? values.filter((value) => typeof value === 'string') : undefined;
}

/** Each code's meaning, looked up by a code read back from the document. */
const MEANINGS = new Map<string, string>(Object.entries(MEANING));

/** The fields a 402 carries beside `error` and `message` (docs/api.md, "402 answers"), for its example. */
function exampleDetails(code: string, base: string): Record<string, unknown> {
  if (code === 'payment_required') {
    return {
      cause: { reason: 'key_or_payment_required' },
      options: [{ type: 'generate_key', method: 'POST', url: `${base}/v1/keys/generate` }],
    };
  }
  if (code === 'quota_exhausted') {
    return {
      used: LIMITS.anonymousPerMonth,
      limit: LIMITS.anonymousPerMonth,
      month: '2026-11',
      basis: 'monthly',
      options: [
        { type: 'claim', method: 'email_code', url: `${base}/v1/keys/claim`, raises_limit_to: LIMITS.freePerMonth },
        { type: 'wait', resets_at: '2026-12-01T00:00:00Z' },
      ],
    };
  }
  return {};
}

function exampleMessage(code: string): string {
  const meaning = MEANINGS.get(code);
  if (!meaning) return 'See the code.';
  const sentence = plain(meaning);
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

function applyExtras(op: Operation, { optionalBody, exactlyOneOf, htmlAnswers, rawBody, retryAfter }: Extras): void {
  for (const [status, description] of Object.entries(retryAfter ?? {})) {
    const response = op.responses?.[status];
    if (response)
      response.headers = {
        ...response.headers,
        'Retry-After': { description, required: true, schema: { type: 'integer', minimum: 0 } },
      };
  }
  if (optionalBody && op.requestBody) op.requestBody.required = false;
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body && exactlyOneOf) body.oneOf = exactlyOneOf.map((field) => ({ required: [field] }));
  if (htmlAnswers) {
    for (const response of Object.values(op.responses ?? {})) {
      if (response.content) Object.assign(response.content, { 'text/html': { schema: { type: 'string' } } });
    }
  }
  if (rawBody) {
    const { description, schema, example } = rawBody;
    op.requestBody = { required: true, description, content: { 'application/json': { schema, example } } };
  }
}
