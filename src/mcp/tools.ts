/**
 * The MCP tools: one entry per tool, naming the REST route it mirrors. Input and output schemas
 * come from that route's own schemas (routes/catalogue.ts), and a call is that route's request.
 */
import { checkBicFormat } from '../data/bic-format.ts';
import type { ErrorCode } from '../errors.ts';
import { ErrorBody } from '../http/schemas.ts';
import { fromAccountHints } from '../iban/from-account.ts';
import type { Rails } from '../payments/offers.ts';
import { type CatalogueRoute, priceText, type RouteCatalogue, requestsText } from '../routes/catalogue.ts';

interface ToolSpec {
  name: string;
  title: string;
  /** The mirrored route, `METHOD /path`. A tool whose route is not registered is not offered. */
  route: string;
  /** Tool argument → path parameter, where the route's name reads badly as an argument. */
  rename?: Record<string, string>;
  /**
   * The route's own refusal of a path argument that cannot travel in a path (`.` and `..` are
   * dot segments, which URLs collapse): the answer the route gives that value elsewhere.
   */
  refuseParam?: (value: string) => ParamRefusal;
  /** What an agent should know beyond the route's summary. */
  note?: string;
  /** Exactly one of these arguments is sent (the input schema's `oneOf`). */
  oneOf?: string[];
  /** A tool that changes something (creates a key); every other tool only reads. */
  writes?: true;
}

export interface ParamRefusal {
  error: ErrorCode;
  message: string;
  [detail: string]: unknown;
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
  {
    name: 'iban_from_account',
    title: 'Build an IBAN from an account',
    route: 'POST /v1/iban/from-account',
    note: `Where the domestic parts go, per country: ${fromAccountHints().join('. ')}.`,
  },
  {
    name: 'extract_ibans',
    title: 'Find IBANs in text',
    route: 'POST /v1/iban/extract',
    note: 'Needs an API key (the no-key trial covers validate_iban only). Each item gives the text as found, its start and end offsets and the validate answer; an item with ocr_repaired: true has the repaired IBAN first in suggestions. A text over 20,000 characters is text_too_long (not charged): split it at line breaks.',
  },
  {
    name: 'lookup_bic',
    title: 'Look up a BIC',
    route: 'GET /v1/bic/:code',
    rename: { bic: 'code' },
    refuseParam: (value) => {
      const format = checkBicFormat(value);
      return format.ok
        ? { error: 'invalid_bic', message: 'a BIC holds only ASCII letters and digits', reason: 'characters' }
        : { error: 'invalid_bic', message: format.message, reason: format.reason };
    },
    note: 'A BIC no source lists is the error bic_not_found (not charged).',
  },
  {
    name: 'check_compliance',
    title: 'Screen a bank for compliance',
    route: 'POST /v1/iban/compliance',
    note: 'Send exactly one of iban or bic.',
    oneOf: ['iban', 'bic'],
  },
  {
    name: 'lookup_swiss_clearing',
    title: 'Look up a Swiss clearing number',
    route: 'GET /v1/ch/clearing/:iid',
    note: 'An unknown IID is the error clearing_not_found (not charged).',
  },
  { name: 'get_usage', title: 'Show quota and usage', route: 'GET /v1/keys/usage' },
  {
    name: 'create_key',
    title: 'Create a free API key',
    route: 'POST /v1/keys/generate',
    writes: true,
    note: 'Needs no key. The new key is structuredContent.api_key, shown once: send it as Authorization: Bearer on your next MCP connection. With email, a code may be mailed first (verification_required): call again with email and code. The same per-network and per-address limits as the REST route apply (rate_limited, 429).',
  },
];

/** How to go on after a 402, naming only the payment rails this server has on. */
function refusalsSentence(rails: Rails): string {
  const ways = ['claim the key by e-mail'];
  if (rails.x402 || rails.card)
    ways.push(`buy credits${rails.card ? ' by card' : ''}${rails.x402 ? ' or by x402' : ''}`);
  if (rails.x402) ways.push('pay per call with x402');
  ways.push('wait for the monthly reset');
  return `A refusal is a result with isError: true whose structured content is the REST error body {error, message, ...}: quota_exhausted or payment_required (402) list \`options\` to go on (${ways.join(', ')}); invalid_request (400) names the field. Refused calls are not charged.`;
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

/** The input schema with `oneOf` when exactly one of some arguments is sent. */
function withOneOf(schema: Record<string, unknown>, oneOf: string[] | undefined): Record<string, unknown> {
  return oneOf ? { ...schema, oneOf: oneOf.map((arg) => ({ required: [arg] })) } : schema;
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

/** The tools whose routes are registered; descriptions name only the payment rails that are on. */
export function buildTools(catalogue: RouteCatalogue, rails: Rails): Tool[] {
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
      refuseParam:
        spec.refuseParam ??
        ((value) => ({ error: 'invalid_request', message: `"${value}" is not a value this tool takes.` })),
      definition: {
        name: spec.name,
        title: spec.title,
        description: [
          route.summary,
          spec.note,
          costSentence(route, rails),
          route.cost.requests === 0 ? FREE_REFUSALS : refusalsSentence(rails),
        ]
          .filter(Boolean)
          .join(' '),
        inputSchema: withOneOf(renamed(route.inputSchema, rename), spec.oneOf),
        // The MCP client checks structuredContent against this, refusals included.
        outputSchema: { type: 'object', anyOf: [route.outputSchema ?? { type: 'object' }, errorSchema] },
        annotations: spec.writes
          ? { title: spec.title, readOnlyHint: false, destructiveHint: false, openWorldHint: false }
          : { title: spec.title, readOnlyHint: true, openWorldHint: false },
      },
    });
  }
  return tools;
}
