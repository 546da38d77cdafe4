/**
 * x402 discovery of a paid route: the `resource.description` and the `bazaar` extension of its
 * PAYMENT-REQUIRED, built with @x402/extensions from the route's own schemas (api/catalogue.ts).
 */
import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { type CatalogueRoute, type JsonSchema, priceText, requestsText } from '../api/catalogue.ts';
import type { Discovery } from '../payments/x402/types.ts';
import { isRecord } from '../is-record.ts';

/** The text of `resource.description`: what the route does and what it costs. */
export function describePaid(route: CatalogueRoute): string {
  const price = priceText(route.cost);
  const quota = route.cost.requests > 0 ? `; or ${requestsText(route.cost)} of an API key's quota` : '';
  return `${route.summary} Price: ${price}${quota}.`;
}

/**
 * Descriptions and examples dropped from a schema: the extension travels base64 in a header (and
 * is echoed in the payment's header), where the types are what a catalogue needs.
 */
export function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact);
  if (schema === null || typeof schema !== 'object') return schema;
  return compactObject(schema);
}

function compactObject(schema: object): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (name === 'description' || name === 'examples') continue;
    // `properties` maps field names to schemas: a field may itself be called `description`.
    out[name] =
      name === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([field, s]) => [field, compact(s)]))
        : compact(value);
  }
  return out;
}

const declared = new WeakMap<CatalogueRoute, Discovery>();

/** What the SDK's bazaar declaration holds, of what this file completes. */
interface BazaarDeclaration {
  info: Record<string, unknown>;
  schema: { properties: Record<string, unknown> };
}

function isBazaarDeclaration(value: unknown): value is BazaarDeclaration {
  return isRecord(value) && isRecord(value.info) && isRecord(value.schema) && isRecord(value.schema.properties);
}

/**
 * The route's declaration. Its HTTP method and path parameters are filled in per request by the
 * SDK's bazaar server extension (registered on the rail), as the specification has it.
 */
export function discoveryOf(route: CatalogueRoute): Discovery {
  const known = declared.get(route);
  if (known) return known;
  const inputSchema = compactObject(route.inputSchema);
  const extensions =
    route.input === 'params'
      ? declareDiscoveryExtension({ pathParams: route.example, pathParamsSchema: inputSchema })
      : route.method === 'GET'
        ? declareDiscoveryExtension({})
        : declareDiscoveryExtension({ bodyType: 'json', input: route.example ?? {}, inputSchema });
  const { bazaar } = extensions;
  if (!isBazaarDeclaration(bazaar)) throw new Error('the x402 SDK declared no bazaar extension');
  // The output is declared by its schema alone (`output.example` is optional in the bazaar
  // specification, and the SDK adds an output only with an example).
  if (route.outputSchema) {
    bazaar.info.output = { type: 'json' };
    bazaar.schema.properties.output = {
      type: 'object',
      properties: { type: { type: 'string' }, example: compact(route.outputSchema) },
      required: ['type'],
    };
  }
  const discovery: Discovery = {
    method: route.method,
    routeTemplate: route.url,
    description: describePaid(route),
    extensions,
  };
  declared.set(route, discovery);
  return discovery;
}

/** The declaration as a 402 of the route's example request carries it (method and path filled in). */
export function discoveryExample(route: CatalogueRoute): Record<string, unknown> {
  const { extensions } = discoveryOf(route);
  const path = route.url.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(route.example?.[name] ?? '')),
  );
  const context = { method: route.method, routePattern: route.url, adapter: { getPath: () => path } };
  return { bazaar: bazaarResourceServerExtension.enrichDeclaration?.(extensions.bazaar, context) };
}
