/**
 * Fastify's options for a declared route (src/api/declaration.ts): its method, path and schemas,
 * and the config the pipeline and the OpenAPI document read. A route file adds only its handler.
 */
import type { FastifyContextConfig } from 'fastify';
import { isCorsRoute, type RouteDeclaration, type RouteSchemas } from '../api/declaration.ts';

export function served<const S extends RouteSchemas>(route: RouteDeclaration<S>, config: FastifyContextConfig = {}) {
  const { pack, operationId } = route;
  return {
    method: route.method,
    url: route.url,
    // Fresh objects: the OpenAPI step (http/openapi.ts) completes each registered route's schema.
    schema: { ...route.schema, ...(operationId && { operationId }), response: { ...route.schema.response } },
    config: {
      declaration: route,
      access: route.access,
      ...(route.crossSite && { crossSite: 'api' as const }),
      ...(isCorsRoute(route) && { cors: true as const }),
      ...(route.idempotent && { idempotent: true }),
      // A pack is sold by x402 alone, at its price.
      ...(pack && { x402Required: true, x402Price: () => pack.priceUsd }),
      ...config,
    },
  };
}
