/**
 * A route of the API, declared once: its method and path, request and answer schemas, the error
 * codes it can answer, its metering and price, the guide text people and agents read, whether
 * the cross-site guard and Idempotency-Key apply, and the MCP tool that mirrors it. The routes
 * (src/routes/) serve a declaration with a handler; OpenAPI, /docs, the pages, the MCP tool
 * list, llms.txt, x402 discovery and the 405 of other methods are all derived from it.
 */
import type { TSchema } from 'typebox';
import type { ErrorCode } from '../errors.ts';
import type { Pack, PricedRoute } from '../plans.ts';
import type { RouteExample } from './route-example.ts';

/** Per-route metering. */
export interface RouteMeter {
  /** Quota units of this call (a batch costs one per IBAN). */
  cost(body: unknown): number;
  /** Served without a key within the daily trial. */
  trial?: boolean;
  /** Route name in the x402 price table. */
  priceKey: PricedRoute;
}

export interface RouteAccess {
  /**
   * `key`: a key is required (401 without); `optional`: a key is used when sent; `none`: no key
   * is used, but a credential header sent is still judged (401 when it holds no usable key).
   */
  auth: 'none' | 'optional' | 'key';
  meter?: RouteMeter;
}

export interface RouteSchemas {
  body?: TSchema;
  params?: TSchema;
  querystring?: TSchema;
  /** The success answers by status; the error answers are derived from `errors`. */
  response: Record<number, TSchema>;
}

/** What the route is for, in the words a developer or an agent acts on. */
export interface Guide {
  /** One line: the OpenAPI summary. */
  title: string;
  /** For agents (llms.txt, MCP tools, x402 discovery) and the home page; routes without one are not listed for them. */
  purpose?: string;
  /** An input that works: the JSON body, or the path parameters. */
  example?: Record<string, unknown>;
}

/** The answer a tool gives to a path argument that cannot travel in a path. */
export interface ParamRefusal {
  error: ErrorCode;
  message: string;
  [detail: string]: unknown;
}

/** The MCP tool that mirrors the route; a call is the route's request. */
export interface ToolDeclaration {
  name: string;
  title: string;
  /** Tool argument → path parameter, where the route's name reads badly as an argument. */
  rename?: Record<string, string>;
  /**
   * The route's own refusal of a path argument that cannot travel in a path (`.` and `..` are
   * dot segments, which URLs collapse): the answer the route gives that value elsewhere.
   */
  refuseParam?: (value: string) => ParamRefusal;
  /** What the tool does, where the route's purpose says more than the tool offers (a format it always fixes). */
  summary?: string;
  /** What an agent should know beyond the route's purpose. */
  note?: string;
  /** A tool that changes something (creates a key); every other tool only reads. */
  writes?: true;
  /** Body members the tool always sends with these values: not offered as arguments. */
  fixedArgs?: Record<string, string>;
  /**
   * `image`: a success is answered as an image content part (the answer's `image`, base64 with
   * its media type) and the answer's `payload` as text, beside the structured content.
   */
  content?: 'image';
}

/** What the OpenAPI document says that a JSON Schema of the body cannot state by itself. */
export interface DocumentExtras {
  /** An absent body is valid (the schema describes the body when one is sent). */
  optionalBody?: true;
  /** A browser (Accept with text/html) gets every answer as a page of the site. */
  htmlAnswers?: true;
  /** The request body as documented, for a route that reads it raw (no body schema). */
  rawBody?: { description: string; schema: Record<string, unknown>; example: unknown };
  /** Success answers that carry Retry-After, by status: what its seconds say. */
  retryAfter?: Record<number, string>;
}

export interface RouteDeclaration<S extends RouteSchemas = RouteSchemas> {
  method: 'GET' | 'POST';
  /** Fastify's pattern, `/v1/bic/:code`. */
  url: string;
  /** Derived from the method and path when absent. */
  operationId?: string;
  schema: S;
  access: RouteAccess;
  /** The codes this route's handler and its own steps can answer; the pipeline's are added from `access`. */
  errors: readonly ErrorCode[];
  /** One request and its answer, for /openapi.json, /docs and docs/api.md. */
  example: RouteExample;
  guide: Guide;
  /** The credit pack the route sells by x402 alone (its price); its 402s offer the other packs. */
  pack?: Pack;
  /** A browser's call from another site is refused (docs/api.md, "Calls from other sites"). */
  crossSite?: true;
  /**
   * Pages of any origin may call it (docs/api.md, "CORS"), as they may every data route; only a
   * route that meters nothing says so (usage).
   */
  cors?: true;
  /** An Idempotency-Key makes a retry safe (docs/api.md, "Safe retries (Idempotency-Key)"). */
  idempotent?: true;
  /** Exactly one of these body fields is sent: checked by the handler, stated to clients. */
  exactlyOneOf?: readonly string[];
  mcp?: ToolDeclaration;
  document?: DocumentExtras;
}

/** Keeps the schemas' own types, so the route serving the declaration gets a typed request. */
export const defineRoute = <const S extends RouteSchemas>(declaration: RouteDeclaration<S>): RouteDeclaration<S> =>
  declaration;

/**
 * Pages of any origin may call the route (CORS): the data routes (those that meter a call) and
 * those that declare `cors`; never one guarded against other sites (the key routes).
 */
export const isCorsRoute = (route: RouteDeclaration): boolean =>
  !route.crossSite && (route.cors === true || route.access.meter !== undefined);

/** A declared path as people and the OpenAPI document read it: `/v1/bic/:code` is `/v1/bic/{code}`. */
export const documentedPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}');

/** A route that meters or sells a call: its path answers 405 to the methods it does not serve. */
export const isDataRoute = (route: RouteDeclaration): boolean => route.access.meter !== undefined || !!route.pack;
