/**
 * Every method a data route does not serve, on that route's path, is 405 `method_not_allowed`
 * with an `Allow` header and costs nothing (docs/api.md, "Errors"). Without this, Fastify answers 404 for
 * a method that has no route, which tells a caller who typed `GET` instead of `POST` that the path
 * does not exist. HEAD on a data GET route is refused earlier, at the edge (server-limits.ts),
 * since Fastify serves it through the GET route itself.
 */
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../errors.ts';

/** The methods Fastify routes; a data route answers one of them, the others get the 405. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/**
 * Collects the data routes (those that meter or sell a call) as they are registered; call the
 * returned function once every route is registered, to add the 405 routes beside them.
 */
export function collectDataRoutes(app: FastifyInstance): () => void {
  const served = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const config = route.config;
    if (!config?.access?.meter && !config?.x402Price && !config?.x402Required) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = served.get(route.url) ?? new Set<string>();
    for (const method of methods) set.add(method);
    served.set(route.url, set);
  });
  return () => {
    for (const [url, methods] of served) {
      const allow = [...methods].filter((m) => m !== 'HEAD').join(', ');
      const others = METHODS.filter((m) => !methods.has(m) && !(m === 'HEAD' && methods.has('GET')));
      if (others.length === 0) continue;
      app.route({
        method: [...others],
        url,
        schema: { hide: true },
        exposeHeadRoute: false,
        handler: async (req, reply) => {
          reply.header('allow', allow);
          throw new DomainError('method_not_allowed', `${req.method} is not served on ${url}: send ${allow}.`);
        },
      });
    }
  };
}
