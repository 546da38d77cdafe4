/**
 * CORS (docs/api.md, "CORS"): pages of any origin may call the data routes and GET
 * /v1/keys/usage with a key, without one (the trial) and with an Idempotency-Key, and read the
 * quota headers of the answer. No credentials: a key travels in `Authorization`, never in a
 * cookie, so `*` exposes nothing a page could not already send. Which routes: the declarations
 * say (isCorsRoute, src/api/declaration.ts); the key routes, /mcp and the card routes send no
 * CORS header, so a browser withholds their answers from other origins, and their cross-site
 * guard (cross-site.ts) refuses the call itself.
 *
 * A preflight (`OPTIONS` on such a path) is answered 204 here and never reaches the pipeline:
 * it carries no key, and costs nothing.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCorsRoute, type RouteDeclaration } from '../api/declaration.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Pages of any origin may call the route and read its answer (CORS). */
    cors?: true;
  }
}

/** The request headers a page may send: the key, the JSON body's type, a retry's key. */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key'];

/** The answer headers a page may read beside the body: the balance, the limits, a replay. */
export const CORS_EXPOSED_HEADERS = [
  'X-Quota-Used',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Month',
  'X-Quota-Exhausted',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
];

/** How long a browser may reuse a preflight's answer (Chromium keeps it at most 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

const ALLOWED_HEADERS = CORS_ALLOWED_HEADERS.join(', ');

const ANSWER_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
};

/**
 * Every answer of a CORS route carries the headers, refusals included (a page reads a 401 or
 * a 402 as well as a 200): set when the request arrives, before any step may refuse it.
 * Register before every other hook (the edge's refusals, the pipeline's).
 */
export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.config?.cors) reply.headers(ANSWER_HEADERS);
    done();
  });
}

/**
 * `handler` for the errors Fastify meets before any route is found (a URL it cannot decode),
 * which no route's hook sees: their 400 carries the CORS headers, so that a page calling a data
 * route with a bad percent-escape can read why it was refused. It holds nothing but the error.
 */
export function corsForFrameworkErrors(
  handler: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => void,
): (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => void {
  return (err, req, reply) => {
    reply.headers(ANSWER_HEADERS);
    handler(err, req, reply);
  };
}

/** The preflight route of each CORS path; call once the routes are registered (before the 405s). */
export function addPreflights(app: FastifyInstance, routes: readonly RouteDeclaration[]): void {
  const served = new Map<string, Set<string>>();
  for (const route of routes.filter(isCorsRoute)) {
    served.set(route.url, new Set([...(served.get(route.url) ?? []), route.method]));
  }
  for (const [url, methods] of served) {
    const allow = [...methods].join(', ');
    app.route({
      method: 'OPTIONS',
      url,
      schema: { hide: true },
      config: { cors: true },
      handler: async (_req, reply) => {
        reply
          .code(204)
          .header('allow', `${allow}, OPTIONS`)
          .header('access-control-allow-methods', allow)
          .header('access-control-allow-headers', ALLOWED_HEADERS)
          .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
          .send();
      },
    });
  }
}

/** True when `url` has a preflight route: its 405s leave OPTIONS to it. */
export const hasPreflight = (routes: readonly RouteDeclaration[], url: string): boolean =>
  routes.some((route) => route.url === url && isCorsRoute(route));
