/**
 * Every method a data route does not serve, on that route's path, is 405 `method_not_allowed`
 * with an `Allow` header and costs nothing (docs/api.md, "Errors"). Without this, Fastify answers 404 for
 * a method that has no route, which tells a caller who typed `GET` instead of `POST` that the path
 * does not exist. HEAD on a data GET route is refused earlier, at the edge (server-limits.ts),
 * since Fastify serves it through the GET route itself. OPTIONS on a path open to other origins is
 * its CORS preflight (cors.ts), answered 204, not refused.
 */
import type { FastifyInstance } from 'fastify';
import { documentedPath, isDataRoute, type RouteDeclaration } from '../api/declaration.ts';
import { DomainError } from '../errors.ts';
import { hasPreflight } from './cors.ts';

/** The methods Fastify routes; a data route answers one of them, the others get the 405. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** Adds the 405 routes beside the declared data routes (those that meter or sell a call); call once they are registered. */
export function addMethodNotAllowed(app: FastifyInstance, routes: readonly RouteDeclaration[]): void {
  const served = new Map<string, Set<string>>();
  for (const route of routes.filter(isDataRoute)) {
    served.set(route.url, new Set([...(served.get(route.url) ?? []), route.method]));
  }
  for (const [url, methods] of served) {
    const allow = [...methods].join(', ');
    const preflight = hasPreflight(routes, url);
    const others = METHODS.filter(
      (m) => !methods.has(m) && !(m === 'HEAD' && methods.has('GET')) && !(m === 'OPTIONS' && preflight),
    );
    app.route({
      method: [...others],
      url,
      schema: { hide: true },
      // A page of another origin reads the 405 as it would the route's own refusal.
      config: { ...(preflight && { cors: true as const }) },
      exposeHeadRoute: false,
      handler: async (req, reply) => {
        reply.header('allow', allow);
        throw notServed(req.method, url, allow);
      },
    });
  }
}

function notServed(method: string, url: string, allow: string): DomainError {
  return new DomainError('method_not_allowed', `${method} is not served on ${documentedPath(url)}: send ${allow}.`);
}

/**
 * The 405 for a method Fastify does not route at all (TRACE, PROPFIND, ...), which reaches the
 * not-found handler instead of the routes above: the data route whose path this is, its methods
 * in `Allow`; null when no data route has the path. The path must be the route's own: with a
 * trailing slash it is not, and the not-found handler names the route it likely meant
 * (docs/api.md, "What a 404 names") rather than refusing a method the route serves. The paths'
 * patterns are made once, here, not for each request.
 */
export function unroutedMethods(
  routes: readonly RouteDeclaration[],
): (method: string, path: string) => { error: DomainError; allow: string } | null {
  const dataRoutes = routes
    .filter(isDataRoute)
    .map((r) => ({ route: r, path: new RegExp(`^${r.url.replace(/:[^/]+/g, '[^/]+')}$`) }));
  return (method, path) => {
    const matching = dataRoutes.filter((d) => d.path.test(path)).map((d) => d.route);
    const [route] = matching;
    if (!route) return null;
    const allow = [...new Set(matching.map((r) => r.method))].join(', ');
    return { error: notServed(method, route.url, allow), allow };
  };
}
