/**
 * The key routes a page on another site could make a visitor's browser call (spending the
 * visitor network's free keys a day, or claiming with its address) answer 403
 * `cross_site_request`, judged before credentials. A browser says where a request comes from:
 * `Sec-Fetch-Site` (`cross-site` or `same-site` is refused), and `Origin`, which must be the
 * origin of MOD97_PUBLIC_URL (`null`, sent by sandboxed frames and some redirects, is refused).
 * Requests with neither header (curl, servers, SDKs) are not browsers' and pass.
 */
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';

const GUARDED = new Set(['/v1/keys/generate', '/v1/keys/claim', '/v1/keys/rotate']);

/**
 * The refusal for a browser's cross-site call to a guarded key route, or null. `publicUrl` is
 * read on each call: it may be set after the app is built.
 */
export function crossSiteGuard(publicUrl: () => string): (req: FastifyRequest) => DomainError | null {
  let known = { url: '', origin: '' };
  const publicOrigin = () => {
    const url = publicUrl();
    if (known.url !== url) known = { url, origin: new URL(url).origin };
    return known.origin;
  };
  return (req) =>
    req.method === 'POST' && GUARDED.has(req.routeOptions.url ?? '') && isCrossSite(req, publicOrigin)
      ? refusal()
      : null;
}

function isCrossSite(req: FastifyRequest, publicOrigin: () => string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  return originOf(origin) !== publicOrigin();
}

function originOf(header: string): string | null {
  try {
    return header === 'null' ? null : new URL(header).origin;
  } catch {
    return null;
  }
}

const refusal = () =>
  new DomainError(
    'cross_site_request',
    "This route is not called from pages on other sites: call it from your server, or from this service's own pages.",
  );
