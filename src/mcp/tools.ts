/**
 * The MCP tools, each declared with the REST route it mirrors (src/api/declaration.ts, `mcp`).
 * Input and output schemas come from that route's own schemas (api/catalogue.ts), and a call is
 * that route's request.
 */
import { type CatalogueRoute, catalogue, priceText, requestsText } from '../api/catalogue.ts';
import type { ParamRefusal, ToolDeclaration } from '../api/declaration.ts';
import { ErrorBody } from '../api/schemas.ts';
import { packsOnSale, type Rails } from '../payments/offers.ts';
import { isRecord } from '../is-record.ts';

/**
 * How a key out of quota goes on, as its 402's `options` offer it (payments/offers.ts): only the
 * payment rails this server has on. Said by the tool descriptions and llms.txt.
 */
export function refusalWays(rails: Rails): string[] {
  const ways = ['claim the key by e-mail'];
  if (packsOnSale(rails)) {
    const by = [...(rails.card ? ['by card'] : []), ...(rails.x402 ? ['by x402'] : [])];
    ways.push(`buy credits ${by.join(' or ')}`);
  }
  if (rails.x402) ways.push('pay per call with x402');
  ways.push('wait for the monthly reset');
  return ways;
}

function refusalsSentence(rails: Rails): string {
  return `A refusal is a result with isError: true whose structured content is the REST error body {error, message, ...}: quota_exhausted or payment_required (402) list \`options\` to go on (${refusalWays(rails).join(', ')}); invalid_request (400) names the field. Refused calls are not charged.`;
}

const FREE_REFUSALS =
  'A refusal is a result with isError: true whose structured content is the REST error body {error, message, ...}.';

export interface Tool {
  name: string;
  route: CatalogueRoute;
  /** Path parameter → tool argument. */
  argOf: (param: string) => string;
  refuseParam: (value: string) => ParamRefusal;
  /** The tools/list entry. */
  definition: {
    name: string;
    title: string;
    description: string;
    inputSchema: Record<string, unknown>;
    outputSchema: Record<string, unknown>;
    annotations: { title: string; readOnlyHint: boolean; destructiveHint?: false; openWorldHint: false };
  };
}

function costSentence(route: CatalogueRoute, rails: Rails): string {
  if (route.cost.requests === 0) return 'Free: draws no quota.';
  const price = rails.x402 ? priceText(route.cost) : null;
  return `Cost: ${requestsText(route.cost)} of the API key's quota${price ? ` (or ${price} per call by x402)` : ''}.`;
}

/**
 * The input schema an agent reads: an object of described properties, nothing at its top but
 * `type`, `properties` and `required` (many clients refuse a top-level `oneOf`, so "exactly one
 * of" is said in the properties' descriptions and the tool's note, and the route judges it).
 */
function toolInput(schema: Record<string, unknown>): Record<string, unknown> {
  const { title: _title, oneOf: _oneOf, anyOf: _anyOf, allOf: _allOf, required, ...rest } = schema;
  return Array.isArray(required) && required.length > 0 ? { ...rest, required } : rest;
}

/** The route's parameter schema with its names as the tool's arguments. */
function renamed(schema: Record<string, unknown>, rename: Record<string, string>): Record<string, unknown> {
  const toArg = Object.fromEntries(Object.entries(rename).map(([arg, param]) => [param, arg]));
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((p) => typeof p === 'string') : [];
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([p, s]) => [toArg[p] ?? p, s])),
    required: required.map((p) => toArg[p] ?? p),
  };
}

/** The input schema without the members the tool always sends itself. */
function withoutFixed(
  schema: Record<string, unknown>,
  fixed: Record<string, string> | undefined,
): Record<string, unknown> {
  if (!fixed || !isRecord(schema.properties)) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([p]) => !(p in fixed)));
  return { ...schema, properties };
}

const errorSchema: Record<string, unknown> = JSON.parse(JSON.stringify(ErrorBody));

/** Every declared tool; descriptions name only the payment rails that are on. */
export function buildTools(rails: Rails): Tool[] {
  return catalogue().flatMap((route) => {
    const spec = route.declaration.mcp;
    return spec ? [toolOf(route, spec, rails)] : [];
  });
}

function toolOf(route: CatalogueRoute, spec: ToolDeclaration, rails: Rails): Tool {
  const rename = spec.rename ?? {};
  const param = Object.fromEntries(Object.entries(rename).map(([arg, p]) => [p, arg]));
  return {
    name: spec.name,
    route,
    argOf: (p) => param[p] ?? p,
    refuseParam:
      spec.refuseParam ??
      ((value) => ({ error: 'invalid_request', message: `"${value}" is not a value this tool takes.` })),
    definition: {
      name: spec.name,
      title: spec.title,
      description: [
        spec.summary ?? route.summary,
        spec.note,
        costSentence(route, rails),
        route.cost.requests === 0 ? FREE_REFUSALS : refusalsSentence(rails),
      ]
        .filter(Boolean)
        .join(' '),
      inputSchema: toolInput(withoutFixed(renamed(route.inputSchema, rename), spec.fixedArgs)),
      // The MCP client checks structuredContent against this, refusals included.
      outputSchema: { type: 'object', anyOf: [route.outputSchema ?? { type: 'object' }, errorSchema] },
      annotations: spec.writes
        ? { title: spec.title, readOnlyHint: false, destructiveHint: false, openWorldHint: false }
        : { title: spec.title, readOnlyHint: true, openWorldHint: false },
    },
  };
}
