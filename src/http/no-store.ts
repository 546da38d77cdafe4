/**
 * An answer that carries a key secret (generate, rotate, a pack's 201, the card success page)
 * must not be kept by a browser or a proxy cache: `Cache-Control: no-store`. Judged on the
 * answer itself, so that no route can forget it, but only on the routes that may answer a
 * secret: those with an `api_key` anywhere in a response schema, and those without a response
 * schema (whose answers cannot be known in advance). A route whose every answer is declared
 * without one (validate, batch, lookups) is not scanned: a secret never appears in them, and
 * scanning a batch's 670 kB answer cost more than the rest of the step.
 */
import type { FastifyReply, RouteOptions } from 'fastify';
import { KEY_ANYWHERE } from '../keys/secret.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set when the route is added: its answers may hold a key secret (see above). */
    mayAnswerSecret?: boolean;
  }
}

export function noStoreIfSecret(reply: FastifyReply, payload: unknown): void {
  if (typeof payload === 'string' && payload.includes('ifk_') && KEY_ANYWHERE.test(payload)) {
    reply.header('cache-control', 'no-store');
  }
}

/** Whether a route's answers may carry a key secret, judged once from its response schemas. */
export function mayAnswerSecret(route: RouteOptions): boolean {
  const response = route.schema?.response;
  if (typeof response !== 'object' || response === null) return true;
  const answers = Object.values(response);
  return answers.length === 0 || answers.some(namesApiKey);
}

function namesApiKey(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  if (Array.isArray(schema)) return schema.some(namesApiKey);
  const properties = 'properties' in schema ? schema.properties : undefined;
  if (properties && typeof properties === 'object' && 'api_key' in properties) return true;
  return Object.values(schema).some(namesApiKey);
}
