/**
 * The MCP tools: one entry per tool, naming the REST route it mirrors. Input and output schemas
 * come from that route's own schemas (routes/catalogue.ts), and a call is that route's request.
 */
import { ErrorBody } from '../http/schemas.ts';
import { type CatalogueRoute, priceText, type RouteCatalogue, requestsText } from '../routes/catalogue.ts';

interface ToolSpec {
  name: string;
  title: string;
  /** The mirrored route, `METHOD /path`. A tool whose route is not registered is not offered. */
  route: string;
  /** Tool argument → path parameter, where the route's name reads badly as an argument. */
  rename?: Record<string, string>;
  /** What an agent should know beyond the route's summary. */
  note?: string;
}

const SPECS: ToolSpec[] = [
  {
    name: 'validate_iban',
    title: 'Validate an IBAN',
    route: 'POST /v1/iban/validate',
    note: 'Without an API key it runs on the no-key trial (25 a day per network). An invalid IBAN is a successful, charged result with valid: false, its errors and suggestions.',
  },
  {
    name: 'validate_ibans',
    title: 'Validate many IBANs',
    route: 'POST /v1/iban/batch',
    note: 'Needs an API key. The whole batch must fit the remaining quota, or nothing is served.',
  },
  { name: 'iban_from_account', title: 'Build an IBAN from an account', route: 'POST /v1/iban/from-account' },
  {
    name: 'extract_ibans',
    title: 'Find IBANs in text',
    route: 'POST /v1/iban/extract',
    note: 'Needs an API key or an x402 payment. Each item gives the text as found, its start and end offsets and the validate answer; an item with ocr_repaired: true has the repaired IBAN first in suggestions. A text over 20,000 characters is text_too_long (not charged): split it at line breaks.',
  },
  {
    name: 'lookup_bic',
    title: 'Look up a BIC',
    route: 'GET /v1/bic/:code',
    rename: { bic: 'code' },
    note: 'A BIC no source lists is the error bic_not_found (not charged).',
  },
  {
    name: 'check_compliance',
    title: 'Screen a bank for compliance',
    route: 'POST /v1/iban/compliance',
    note: 'Send exactly one of iban or bic.',
  },
  {
    name: 'lookup_swiss_clearing',
    title: 'Look up a Swiss clearing number',
    route: 'GET /v1/ch/clearing/:iid',
    note: 'An unknown IID is the error clearing_not_found (not charged).',
  },
  { name: 'get_usage', title: 'Show quota and usage', route: 'GET /v1/keys/usage' },
];

const REFUSALS =
  'A refusal is a result with isError: true whose structured content is the REST error body {error, message, ...}: quota_exhausted or payment_required (402) list `options` to go on (claim the key by e-mail, buy credits, pay per call with x402, wait for the monthly reset); invalid_request (400) names the field. Refused calls are not charged.';

export interface Tool {
  name: string;
  route: CatalogueRoute;
  /** Path parameter → tool argument. */
  argOf: (param: string) => string;
  /** The tools/list entry. */
  definition: {
    name: string;
    title: string;
    description: string;
    inputSchema: Record<string, unknown>;
    outputSchema: Record<string, unknown>;
    annotations: { title: string; readOnlyHint: true; openWorldHint: false };
  };
}

function costSentence(route: CatalogueRoute): string {
  if (route.cost.requests === 0) return 'Free: draws no quota.';
  const price = priceText(route.cost);
  return `Cost: ${requestsText(route.cost)} of the API key's quota${price ? ` (x402 price ${price})` : ''}.`;
}

/** The route's parameter schema with its names as the tool's arguments. */
function renamed(schema: Record<string, unknown>, rename: Record<string, string>): Record<string, unknown> {
  const toArg = Object.fromEntries(Object.entries(rename).map(([arg, param]) => [param, arg]));
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([p, s]) => [toArg[p] ?? p, s])),
    required: required.map((p) => toArg[p] ?? p),
  };
}

const errorSchema = JSON.parse(JSON.stringify(ErrorBody)) as Record<string, unknown>;

export function buildTools(catalogue: RouteCatalogue): Tool[] {
  const tools: Tool[] = [];
  for (const spec of SPECS) {
    const [method, url] = spec.route.split(' ');
    const route = catalogue.get(method, url);
    if (!route) continue;
    const rename = spec.rename ?? {};
    const param = Object.fromEntries(Object.entries(rename).map(([arg, p]) => [p, arg]));
    tools.push({
      name: spec.name,
      route,
      argOf: (p) => param[p] ?? p,
      definition: {
        name: spec.name,
        title: spec.title,
        description: [route.summary, spec.note, costSentence(route), REFUSALS].filter(Boolean).join(' '),
        inputSchema: renamed(route.inputSchema, rename),
        // The MCP client checks structuredContent against this, refusals included.
        outputSchema: { type: 'object', anyOf: [route.outputSchema ?? { type: 'object' }, errorSchema] },
        annotations: { title: spec.title, readOnlyHint: true, openWorldHint: false },
      },
    });
  }
  return tools;
}
