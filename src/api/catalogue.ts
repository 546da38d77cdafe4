/**
 * The routes as agents read them, derived from their declarations (declaration.ts): llms.txt,
 * the MCP tools, the x402 discovery document and the bazaar extension all describe a route from
 * its own schemas, price and purpose, never from a second copy.
 */
import { X402_PRICES_USD } from '../plans.ts';
import type { RouteDeclaration, RouteMeter } from './declaration.ts';
import { API_ROUTES } from './index.ts';

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
  declaration: RouteDeclaration;
}

const EMPTY_OBJECT: JsonSchema = { type: 'object', properties: {} };

/** The x402 price of one unit of a metered route (a batch is priced per IBAN). */
function unitPriceUsd(meter: RouteMeter): number {
  return meter.priceKey === 'batch' ? X402_PRICES_USD.batchPerIban : X402_PRICES_USD[meter.priceKey];
}

export function costOf(route: RouteDeclaration): Cost {
  const { meter } = route.access;
  if (meter) return { requests: 1, perIban: meter.priceKey === 'batch', x402Usd: unitPriceUsd(meter) };
  if (route.pack) return { requests: 0, perIban: false, x402Usd: route.pack.priceUsd };
  return { requests: 0, perIban: false, x402Usd: null };
}

/** A plain-JSON copy: route schemas are shared objects that Fastify and the serialiser also read. */
const copy = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema));

const entries = new WeakMap<RouteDeclaration, CatalogueRoute | null>();

/** The route as agents read it; null for a route without a purpose, which is not listed for them. */
export function catalogueRoute(route: RouteDeclaration): CatalogueRoute | null {
  const known = entries.get(route);
  if (known !== undefined) return known;
  const { schema, guide } = route;
  const input: CatalogueRoute['input'] = schema.body ? 'body' : schema.params ? 'params' : 'none';
  const success = schema.response[200] ?? schema.response[201];
  const entry: CatalogueRoute | null = guide.purpose
    ? {
        method: route.method,
        url: route.url,
        summary: guide.purpose,
        example: guide.example,
        input,
        inputSchema: input === 'body' ? copy(schema.body) : input === 'params' ? copy(schema.params) : EMPTY_OBJECT,
        outputSchema: success ? copy(success) : null,
        cost: costOf(route),
        declaration: route,
      }
    : null;
  entries.set(route, entry);
  return entry;
}

/** Every route listed for agents, in the declarations' order. */
export const catalogue = (): CatalogueRoute[] =>
  API_ROUTES.flatMap((route) => {
    const entry = catalogueRoute(route);
    return entry ? [entry] : [];
  });

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
