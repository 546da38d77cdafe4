/**
 * The route table as agents read it. Each API route is collected as it is registered, with the
 * schemas it declares and the metering in its `config`, so llms.txt, the MCP tools, the x402
 * discovery document and the bazaar extension all describe the routes from their own schemas
 * and prices, never from a second copy; what a route is for, and an example input, come from
 * src/routes/guides.ts, which the OpenAPI document reads too.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { RouteMeter } from '../http/caller.ts';
import { X402_PRICES_USD } from '../plans.ts';
import { guideOf } from './guides.ts';

export type JsonSchema = Record<string, unknown>;

export interface Cost {
  /** Quota units a call draws: 1, or 1 per IBAN of a batch; 0 for free routes. */
  requests: number;
  perIban: boolean;
  /** The x402 price of one call (of one IBAN for a batch) in USD; null when x402 does not sell it. */
  x402Usd: number | null;
}

export interface CatalogueRoute {
  method: 'GET' | 'POST';
  /** Fastify's pattern, `/v1/bic/:code`. */
  url: string;
  summary: string;
  example?: Record<string, unknown>;
  /** Where the input goes: the JSON body, the path parameters, or nowhere. */
  input: 'body' | 'params' | 'none';
  inputSchema: JsonSchema;
  /** The success answer's schema (200 or 201). */
  outputSchema: JsonSchema | null;
  cost: Cost;
}

export interface RouteCatalogue {
  get(method: string, url: string): CatalogueRoute | undefined;
  all(): CatalogueRoute[];
}

const EMPTY_OBJECT: JsonSchema = { type: 'object', properties: {} };

/** The x402 price of one unit of a metered route (a batch is priced per IBAN). */
function unitPriceUsd(meter: RouteMeter): number {
  return meter.priceKey === 'batch' ? X402_PRICES_USD.batchPerIban : X402_PRICES_USD[meter.priceKey];
}

function costOf(route: RouteOptions): Cost {
  const config = route.config ?? {};
  const meter = config.access?.meter;
  if (meter) return { requests: 1, perIban: meter.priceKey === 'batch', x402Usd: unitPriceUsd(meter) };
  if (config.pack) return { requests: 0, perIban: false, x402Usd: config.pack.priceUsd };
  return { requests: 0, perIban: false, x402Usd: null };
}

/** A plain-JSON copy: route schemas are shared objects that Fastify and the serialiser also read. */
const copy = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema));

/** Starts collecting routes; call before the routes are registered. */
export function collectRoutes(app: FastifyInstance): RouteCatalogue {
  const routes = new Map<string, CatalogueRoute>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const key = `${method} ${route.url}`;
      const guide = guideOf(method, route.url);
      if (!guide?.purpose || (method !== 'GET' && method !== 'POST')) continue;
      const schema = (route.schema ?? {}) as { body?: unknown; params?: unknown; response?: Record<string, unknown> };
      const input = schema.body ? 'body' : schema.params ? 'params' : 'none';
      const success = schema.response?.[200] ?? schema.response?.[201];
      routes.set(key, {
        method: method as 'GET' | 'POST',
        url: route.url,
        summary: guide.purpose,
        example: guide.example,
        input,
        inputSchema: input === 'body' ? copy(schema.body) : input === 'params' ? copy(schema.params) : EMPTY_OBJECT,
        outputSchema: success ? copy(success) : null,
        cost: costOf(route),
      });
    }
  });
  return {
    get: (method, url) => routes.get(`${method} ${url}`),
    all: () => [...routes.values()],
  };
}

/** "1 request", "1 per IBAN", "free". */
export function requestsText(cost: Cost): string {
  if (cost.perIban) return '1 request per IBAN';
  return cost.requests === 0 ? 'free (no quota)' : `${cost.requests} request`;
}

/** "$0.005", "$0.002 per IBAN", or null. */
export function priceText(cost: Cost): string | null {
  if (cost.x402Usd === null) return null;
  return `$${cost.x402Usd}${cost.perIban ? ' per IBAN' : ''}`;
}
