/**
 * What the OpenAPI document says about every route beyond its schemas, derived in one place:
 * `security` from the route's access rule (so generated clients send the key), the error answers
 * every route (or every JSON route) can give, a summary, and the few facts a JSON Schema of the body
 * cannot state by itself (an optional body, "exactly one of", the raw webhook body).
 */
import type { RouteOptions } from 'fastify';
import { ErrorBody } from './schemas.ts';

const KEY_SCHEMES = [{ bearer: [] }, { apiKey: [] }];

/**
 * Answers any route can give whatever its input: a request or headers too slow (408), an
 * `Expect` it cannot meet (417), headers too large (431), a fault of ours (500), and a database
 * that cannot be reached or written (503 `storage_unavailable` with Retry-After).
 */
const ANY_ROUTE_ERRORS = [408, 417, 431, 500, 503];

const SUMMARIES: Record<string, string> = {
  'POST /v1/keys/generate': 'Create a free key (anonymous, or with an e-mail address)',
  'GET /v1/keys/usage': 'Quota used and left for the key sent (or the trial without one); free',
  'POST /v1/keys/rotate': 'Replace the key with a new secret; tier, quota and counters are kept',
  'POST /v1/keys/claim': 'Claim an anonymous key with a mailed code (200 a month)',
  'POST /v1/iban/validate': 'Validate one IBAN (no key needed within the daily trial)',
  'POST /v1/iban/batch': 'Validate many IBANs, one request of quota per IBAN',
  'POST /v1/iban/from-account': 'Build and validate the IBAN of a domestic account number',
  'GET /v1/bic/{code}': 'The bank behind a BIC',
  'POST /v1/iban/compliance': 'Screen an IBAN or a BIC against sanctions and country lists',
  'GET /v1/ch/clearing/{iid}': 'Swiss and Liechtenstein clearing entry of an IID',
  'POST /v1/card/checkout': 'Start a Stripe Checkout for a credit pack or Pro',
  'GET /v1/card/success': 'Outcome of a card checkout; reveals a new key once',
  'POST /v1/card/webhook': "Stripe's signed event deliveries",
  'POST /v1/credits/buy/1k': 'Buy 1,000 credits by x402',
  'POST /v1/credits/buy/5k': 'Buy 5,000 credits by x402',
  'POST /v1/credits/buy/25k': 'Buy 25,000 credits by x402',
};

export function documentRoute(route: RouteOptions): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide) return;
  const method = String(route.method);
  const path = route.url.replace(/:(\w+)/g, '{$1}');
  const auth = route.config?.access?.auth ?? 'none';
  schema.security ??= auth === 'key' ? KEY_SCHEMES : auth === 'optional' ? [{}, ...KEY_SCHEMES] : [];
  schema.summary ??= SUMMARIES[`${method} ${path}`];
  if (!schema.response) return;
  const responses = schema.response as Record<string, unknown>;
  for (const status of ANY_ROUTE_ERRORS) responses[status] ??= ErrorBody;
  if (method === 'POST') {
    responses[413] ??= ErrorBody;
    // A route sold only by x402 reads no body, so it never answers 415.
    if (!route.config?.x402Required) responses[415] ??= ErrorBody;
  }
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
  const webhook = paths['/v1/card/webhook']?.post;
  if (webhook) {
    webhook.requestBody = {
      required: true,
      description: 'A Stripe event, verified against the Stripe-Signature header over the exact bytes sent.',
      content: { 'application/json': { schema: { type: 'object', required: ['id', 'type', 'data'] } } },
    };
  }
  return doc;
}
