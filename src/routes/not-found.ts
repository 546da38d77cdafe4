/**
 * The answer to a path no route serves. A browser asking for a page gets a page that says so,
 * names the page it most likely meant and links the others; anything else gets 404 `not_found`
 * naming the API routes it most likely meant (src/http/nearest-route.ts), so a path typed from
 * memory leads to the right one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import { prefersHtml } from '../http/accept.ts';
import { sendError } from '../http/errors.ts';
import { documentedPath, type RouteDeclaration } from '../api/declaration.ts';
import { unroutedMethods } from '../http/method-not-allowed.ts';
import { nearestRoutes } from '../http/nearest-route.ts';
import { askIfMeant } from '../typing-slips.ts';
import { NAV, sendPage } from '../web/render.ts';

const PAGES = [...NAV, { href: '/terms', label: 'Terms of use' }].map((p) => ({ ...p, method: 'GET', url: p.href }));

export function notFound(routes: readonly RouteDeclaration[]) {
  const unroutedMethod = unroutedMethods(routes);
  return (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    // A data route's path with a method Fastify routes nowhere (TRACE, PROPFIND): 405, as any other
    const unrouted = unroutedMethod(req.method, req.url.split('?')[0] ?? '');
    if (unrouted) return sendError(req, reply.header('allow', unrouted.allow), unrouted.error);
    // A path of the API answers JSON even to a browser: its message names the API routes meant.
    if ((req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/v1/') && prefersHtml(req)) {
      const near = nearestRoutes('GET', req.url, PAGES);
      reply.code(404).header('vary', 'Accept');
      return sendPage(reply, 'not-found', { path: '', page: 'not-found', title: 'Page not found', near, pages: PAGES });
    }
    const near = nearestRoutes(req.method, req.url, routes).map((r) => `${r.method} ${documentedPath(r.url)}`);
    const message = `No route for ${req.method} at this path.${askIfMeant(near)} Every route is in /openapi.json.`;
    return sendError(req, reply, new DomainError('not_found', message));
  };
}
