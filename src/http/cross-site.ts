/**
 * The one rule for a browser's call from another site (docs/api.md, "Calls from other sites"):
 * the key routes (a page on another site could spend the visitor network's free keys a day, or
 * claim with its address) and /mcp (a page could drive an agent's tools) answer 403
 * `cross_site_request`, judged before credentials.
 *
 * A browser says where a request comes from: `Sec-Fetch-Site` (`cross-site` or `same-site` is
 * refused), and `Origin`, which must be the origin of MOD97_PUBLIC_URL or the request's own
 * origin (its Host, with the scheme it arrived by) when that host cannot be rebound: an IP
 * address or `localhost`. So a page of the service opened at 127.0.0.1 or localhost works
 * whatever MOD97_PUBLIC_URL says, and one opened at any other name works when that name is the
 * public URL's. A name that is neither does not count even as the request's own: a page of
 * evil.example whose name is made to resolve to this machine (DNS rebinding) sends Host and
 * Origin both evil.example, so "Origin equals Host" proves nothing for a name (the MCP transport
 * asks the same of servers). `null`, sent by sandboxed frames and some redirects, is refused.
 * Requests with neither header (curl, servers, SDKs, agents) are not browsers' and pass.
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route refuses a browser's call from another site: `api` for the routes whose
     * declaration says so (the key routes), `mcp` for /mcp (the same rule, its own message).
     */
    crossSite?: 'api' | 'mcp';
  }
}

/**
 * The refusal for a browser's cross-site call to a guarded route, or null.
 */
export function crossSiteGuard(publicUrl: string): (req: FastifyRequest) => DomainError | null {
  const publicOrigin = new URL(publicUrl).origin;
  return (req) => {
    const guard = req.routeOptions.config.crossSite;
    if (guard === undefined) return null;
    const from = crossSiteOrigin(req, publicOrigin);
    if (from === false) return null;
    // the service's own page (same origin, as the browser says), opened at a name that is not the
    // public URL's: say where it works
    const sameOrigin = req.headers['sec-fetch-site'] === undefined || req.headers['sec-fetch-site'] === 'same-origin';
    if (guard === 'api' && sameOrigin && from !== null && from === ownOrigin(req))
      return ownPageElsewhere(from, publicOrigin);
    return refusal(guard === 'mcp');
  };
}

/**
 * Whether the browser that sent `req` says it comes from a page of another site: false when
 * not, else the page's origin (null when the browser does not say which).
 */
function crossSiteOrigin(req: FastifyRequest, publicOrigin: string): string | null | false {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const from = origin === undefined ? null : originOf(origin);
  if (site === 'cross-site' || site === 'same-site') return from;
  if (origin === undefined) return false;
  if (from === null) return null;
  if (from === publicOrigin) return false;
  if (from !== ownOrigin(req)) return from;
  return unrebindable(new URL(from).hostname) ? false : from;
}

/** A host no DNS answer can point elsewhere: an IP address, or `localhost` (browsers pin it to loopback). */
function unrebindable(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) !== 0 || hostname === 'localhost';
}

/** The origin the request was addressed to: its Host, with the scheme it arrived by. */
function ownOrigin(req: FastifyRequest): string | null {
  const host = req.headers.host;
  if (!host) return null;
  const { socket } = req; // a TLS socket carries `encrypted: true`
  const scheme = 'encrypted' in socket && socket.encrypted ? 'https' : 'http';
  return originOf(`${scheme}://${host}`);
}

function originOf(header: string): string | null {
  try {
    const origin = header === 'null' ? null : new URL(header).origin;
    // Only http(s) URLs have a tuple origin; others serialise as "null".
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

const ownPageElsewhere = (from: string, publicOrigin: string) => {
  const { port } = new URL(from);
  const local = `http://localhost${port ? `:${port}` : ''}`;
  return new DomainError(
    'cross_site_request',
    `This page was opened at ${from}, a name this service does not know as its own (another site's name can be made to point here), so it cannot create, claim or rotate keys from there. Open it at ${publicOrigin} or ${local} instead, or have the operator set MOD97_PUBLIC_URL to ${from}.`,
  );
};

const refusal = (mcp: boolean) =>
  new DomainError(
    'cross_site_request',
    mcp
      ? 'MCP requests from pages on other sites are refused: connect from an agent or a server, which send no Origin.'
      : "This route is not called from pages on other sites: call it from your server, or from this service's own pages.",
  );
