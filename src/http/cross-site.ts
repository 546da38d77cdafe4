/**
 * The one rule for a browser's call from another site (docs/api.md, "Calls from other sites"):
 * the key routes (a page on another site could spend the visitor network's free keys a day, or
 * claim with its address) and /mcp (a page could drive an agent's tools) answer 403
 * `cross_site_request`, judged before credentials.
 *
 * A browser says where a request comes from: `Sec-Fetch-Site` (`cross-site` or `same-site` is
 * refused), and `Origin`, which must be the origin of MOD97_PUBLIC_URL or the request's own
 * origin (its Host, with the scheme it arrived by), so that a page of the service opened at any
 * address that reaches it (127.0.0.1, localhost, a LAN name) works. `null`, sent by sandboxed
 * frames and some redirects, is refused. Requests with neither header (curl, servers, SDKs,
 * agents) are not browsers' and pass.
 *
 * /mcp adds one condition, as the MCP transport asks of servers against DNS rebinding (a page of
 * evil.example whose name is made to resolve to this machine sends Host and Origin both
 * evil.example): there, the request's own origin counts only when its host cannot be rebound,
 * an IP address or `localhost`. Its own pages never call /mcp, so none is refused by this.
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route refuses a browser's call from another site: `api` for the routes whose
     * declaration says so (the key routes), `mcp` for /mcp, where the request's own origin counts
     * only for a host that DNS cannot rebind.
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
    const mcp = guard === 'mcp';
    return isCrossSite(req, publicOrigin, mcp) ? refusal(mcp) : null;
  };
}

/** True when the browser that sent `req` says it comes from a page of another site. */
function isCrossSite(req: FastifyRequest, publicOrigin: string, rebindingSafe: boolean): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const from = originOf(origin);
  if (from === null) return true;
  if (from === publicOrigin) return false;
  if (from !== ownOrigin(req)) return true;
  return rebindingSafe && !unrebindable(new URL(from).hostname);
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

const refusal = (mcp: boolean) =>
  new DomainError(
    'cross_site_request',
    mcp
      ? 'MCP requests from pages on other sites are refused: connect from an agent or a server, which send no Origin.'
      : "This route is not called from pages on other sites: call it from your server, or from this service's own pages.",
  );
