/**
 * What the OpenAPI document says about every route beyond its schemas, derived in one place:
 * `security` from the route's access rule (so generated clients send the key), the error answers
 * every route (or every JSON route) can give, a summary, and the few facts a JSON Schema of the body
 * cannot state by itself (an optional body, "exactly one of", the raw webhook body, a page for browsers).
 */
import type { RouteOptions } from 'fastify';
import { guideOf } from '../routes/guides.ts';
import { documentHeaders } from './openapi-headers.ts';
import { ErrorBody } from './schemas.ts';

const KEY_SCHEMES = [{ bearer: [] }, { apiKey: [] }];

/**
 * Answers any route can give whatever its input: a request or headers too slow (408), an
 * `Expect` it cannot meet (417), headers too large (431), a fault of ours (500), and a database
 * that cannot be reached or written (503 `storage_unavailable` with Retry-After).
 */
const ANY_ROUTE_ERRORS = [408, 417, 431, 500, 503];

export function documentRoute(route: RouteOptions): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide) return;
  const method = String(route.method);
  const auth = route.config?.access?.auth ?? 'none';
  schema.security ??= auth === 'key' ? KEY_SCHEMES : auth === 'optional' ? [{}, ...KEY_SCHEMES] : [];
  const guide = guideOf(method, route.url);
  schema.summary ??= guide?.title;
  schema.description ??= guide?.purpose;
  if (!schema.response) return;
  const responses = schema.response as Record<string, unknown>;
  for (const status of ANY_ROUTE_ERRORS) responses[status] ??= ErrorBody;
  if (method === 'POST') {
    responses[413] ??= ErrorBody;
    // A route sold only by x402 reads no body, so it never answers 415.
    if (!route.config?.x402Required) responses[415] ??= ErrorBody;
  }
  if (method === 'POST' && route.config?.access?.meter) documentIdempotencyKey(route, responses);
}

const IDEMPOTENCY_KEY_HEADER = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      pattern: '^[\\x21-\\x7e]{1,255}$',
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
function documentIdempotencyKey(route: RouteOptions, responses: Record<string, unknown>): void {
  responses[409] ??= ErrorBody;
  responses[422] ??= ErrorBody;
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
type RequestBody = { required?: boolean; description?: string; content?: Record<string, { schema?: JsonSchema }> };
type Doc = { paths?: Record<string, Record<string, { requestBody?: RequestBody }>> };

export function documentBodies<T>(doc: T): T {
  const paths = (doc as Doc).paths ?? {};
  // An absent body is valid on these: the anonymous path, and "mail me a code".
  for (const path of ['/v1/keys/generate', '/v1/keys/claim']) {
    const body = paths[path]?.post?.requestBody;
    if (body) body.required = false;
  }
  const compliance = paths['/v1/iban/compliance']?.post?.requestBody?.content?.['application/json']?.schema;
  // Checked by the handler (its own error message), stated here for clients: exactly one of the two.
  if (compliance) compliance.oneOf = [{ required: ['iban'] }, { required: ['bic'] }];
  const success = paths['/v1/card/success']?.get as { responses?: Record<string, { content?: object }> } | undefined;
  // A browser (Accept with text/html) gets every answer of the success page as a page of the site.
  for (const response of Object.values(success?.responses ?? {})) {
    if (response.content) Object.assign(response.content, { 'text/html': { schema: { type: 'string' } } });
  }
  const webhook = paths['/v1/card/webhook']?.post;
  if (webhook) {
    webhook.requestBody = {
      required: true,
      description: 'A Stripe event, verified against the Stripe-Signature header over the exact bytes sent.',
      content: { 'application/json': { schema: { type: 'object', required: ['id', 'type', 'data'] } } },
    };
  }
  return documentHeaders(doc);
}
