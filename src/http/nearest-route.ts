/**
 * The routes a request for an unknown path most likely meant, for the 404's message: a path
 * typed from memory is often one edit, a missing `/v1` or group (`/v1/validate`), a capital or
 * a trailing slash away from a real one, or stops one segment short (`/v1/iban`). Nothing is
 * guessed from afar: a route is named only when it is that close, so a 404 never points a
 * caller somewhere unrelated.
 */
import { slipsBetween } from '../typing-slips.ts';

export interface RouteAddress {
  method: string;
  /** As Fastify declares it: `/v1/bic/:code`. */
  url: string;
}

/** At most this many routes are named. */
const MAX_NAMED = 3;
/** Rank of a route named by a rule below rather than by typing slips. */
const BY_RULE = 3;

/** Lower case, no query, no trailing slash, and the version (or an `/api` in front) dropped. */
function comparable(path: string): string[] {
  const [bare = ''] = path.split('?');
  const segments = bare.toLowerCase().split('/').filter(Boolean);
  while (segments[0] === 'api' || segments[0] === 'v1') segments.shift();
  return segments;
}

/** The route's segments with each parameter replaced by what the request has in its place. */
function filled(route: string[], request: string[]): string[] {
  return route.map((segment, i) => (segment.startsWith(':') ? (request[i] ?? segment) : segment));
}

/** How far the request is from the route, or undefined when it is too far to name it. */
function remoteness(request: string[], route: string[]): number | undefined {
  const edits = slipsBetween(request.join('/'), filled(route, request).join('/'));
  if (edits !== undefined) return edits;
  const last = route.at(-1) ?? '';
  // `/v1/validate` for `/v1/iban/validate`: the route's own last word, with its group left out.
  if (request.length === 1 && !last.startsWith(':') && request[0] === last) return BY_RULE;
  // `/v1/bic` for `/v1/bic/{code}`, `/v1/iban` for `/v1/iban/validate`: the route without its last segment.
  if (route.length === request.length + 1 && request.every((s, i) => s === route[i])) return BY_RULE;
  return undefined;
}

/** The closest routes to `method` `path`, nearest first, the request's own method first among equals. */
export function nearestRoutes<R extends RouteAddress>(method: string, path: string, routes: readonly R[]): R[] {
  const request = comparable(path);
  if (request.length === 0) return [];
  const named: { route: R; rank: number }[] = [];
  for (const route of routes) {
    const away = remoteness(request, comparable(route.url));
    if (away !== undefined) named.push({ route, rank: away * 2 + (route.method === method ? 0 : 1) });
  }
  return named
    .sort((a, b) => a.rank - b.rank)
    .slice(0, MAX_NAMED)
    .map(({ route }) => route);
}
