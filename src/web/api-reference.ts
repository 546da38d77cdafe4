/**
 * The API reference page, rendered on the server from the same OpenAPI document /openapi.json
 * serves: no client bundle, no CDN, nothing to load but our stylesheet and script. Text is
 * rendered (inline code, emphasis, links), never shown as raw Markdown.
 */
import type { ErrorCode } from '../errors.ts';
import { MEANING, STATUS } from '../http/errors.ts';

type Schema = {
  type?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
};
/** The document's named schemas, which bodies and fields refer to by `$ref`. */
type Named = Record<string, Schema>;
type Media = { schema?: Schema & { allOf?: { properties?: { error?: { enum?: string[] } } }[] }; example?: unknown };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
};
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Named };
}

/** Whether @fastify/swagger built an OpenAPI 3 document (not a Swagger 2 one), which the reference reads. */
const isOpenApiDoc = (doc: unknown): doc is OpenApiDoc =>
  typeof doc === 'object' && doc !== null && 'openapi' in doc && 'info' in doc && 'paths' in doc;

export function openApiDoc(doc: unknown): OpenApiDoc {
  if (isOpenApiDoc(doc)) return doc;
  throw new Error('the API reference needs an OpenAPI 3 document');
}

/** Every status any route answers, in words. */
const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: not finished yet',
  400: 'Bad request',
  401: 'Key missing or not valid',
  402: 'Payment or quota needed',
  403: 'Refused',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request too slow',
  409: 'Conflict',
  410: 'Gone: shown once already',
  413: 'Body too large',
  415: 'Body not JSON',
  417: 'Expectation failed',
  422: 'Unprocessable',
  429: 'Too many today',
  431: 'Headers too large',
  500: 'Fault of ours, not charged',
  502: 'Payment provider failed',
  503: 'Unavailable for now',
};

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/**
 * The small Markdown the descriptions use, as HTML: `code`, **strong**, [text](link). The text is
 * escaped first, so nothing in it can become markup of its own.
 */
export function inlineHtml(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\/|#)[^)\s]*)\)/g, '<a href="$2">$1</a>');
}

/** The schema a `$ref` names (`#/components/schemas/Validation`), or the schema itself. */
const resolve = (schema: Schema | undefined, named: Named): Schema | undefined =>
  schema?.$ref ? named[schema.$ref.split('/').pop() ?? ''] : schema;

const fieldsOf = (ref: Schema | undefined, named: Named) => {
  const schema = resolve(ref, named);
  return Object.entries(schema?.properties ?? {}).map(([name, field]) => {
    const s = resolve(field, named);
    return {
      name,
      type: typeOf(s),
      required: new Set(schema?.required ?? []).has(name),
      description: inlineHtml(field.description ?? s?.description ?? ''),
    };
  });
};

const typeOf = (s: Schema | undefined) => (Array.isArray(s?.type) ? s.type.join(' or ') : String(s?.type ?? 'object'));

function authOf(op: Operation): string {
  const security = op.security ?? [];
  if (security.length === 0) return 'No key';
  if (security.some((s) => Object.keys(s).length === 0)) return 'Key optional';
  if (security.every((s) => 'x402' in s)) return 'x402 payment (key optional)';
  if (security.some((s) => 'x402' in s)) return 'Key or x402 payment';
  return 'Key required';
}

/** The first success answer, field by field, and its example. */
function firstSuccess(op: Operation, named: Named) {
  const answers = Object.entries(op.responses ?? {}).filter(([s]) => s.startsWith('2'));
  const [status, answer] = answers.find(([, a]) => a.content?.['application/json']?.example !== undefined) ??
    answers[0] ?? [undefined, undefined];
  const media = answer?.content?.['application/json'];
  const fields = fieldsOf(media?.schema, named);
  if (!status) return null;
  return {
    status,
    label: STATUS_TEXT[status] ?? '',
    fields,
    example: media?.example === undefined ? '' : JSON.stringify(media.example, null, 2),
  };
}

/**
 * Calls that change a key (or what it pays for): "Try it" asks first, with this on its button,
 * as /usage does before a rotation. Every other call is sent at once.
 */
const CONFIRM_BEFORE: Record<string, string> = {
  rotateKey: 'Confirm: rotate now (the key in the field stops working)',
  claimKey: 'Confirm: claim the key with this address',
  cancelPro: 'Confirm: cancel Pro at the end of the period',
};

const anchor = (code: string) => `error-${code.replace(/_/g, '-')}`;

/** Every code of the one error table, with its status and meaning, for the list the routes link to. */
export function errorCodes() {
  return Object.keys(STATUS)
    .filter((code): code is ErrorCode => code in STATUS && code !== 'invalid_config')
    .map((code): [ErrorCode, number] => [code, STATUS[code]])
    .sort(([, a], [, b]) => a - b)
    .map(([code, status]) => ({
      code,
      status,
      anchor: anchor(code),
      meaning: inlineHtml(MEANING[code] ?? ''),
    }));
}

export function apiReference(doc: OpenApiDoc) {
  const named = doc.components?.schemas ?? {};
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody?.content?.['application/json'];
      const result = firstSuccess(op, named);
      const samples = (op['x-codeSamples'] ?? []).map((s, i) => ({ ...s, id: `${op.operationId}-sample-${i}` }));
      return {
        id: op.operationId ?? `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-'),
        method: method.toUpperCase(),
        path,
        tag: op.tags?.[0] ?? '',
        summary: inlineHtml(op.summary ?? ''),
        description: inlineHtml(op.description ?? ''),
        auth: authOf(op),
        params: (op.parameters ?? []).map((p) => ({
          name: p.name,
          where: p.in,
          type: typeOf(p.schema),
          required: Boolean(p.required),
          description: inlineHtml(p.description ?? p.schema?.description ?? ''),
        })),
        body: resolve(body?.schema, named)?.properties
          ? { required: Boolean(op.requestBody?.required), fields: fieldsOf(body?.schema, named) }
          : null,
        samples,
        result,
        statuses: Object.entries(op.responses ?? {}).map(([status, r]) => {
          const codes = r.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.enum ?? [];
          return {
            status,
            label: STATUS_TEXT[status] ?? r.description ?? '',
            codes: codes.map((code) => ({ code, anchor: anchor(code) })),
          };
        }),
        tryIt: {
          method: method.toUpperCase(),
          path: samplePath(op, path),
          body: body?.example === undefined ? null : JSON.stringify(body.example, null, 2),
          confirm: CONFIRM_BEFORE[op.operationId ?? ''] ?? null,
        },
      };
    }),
  );
  return {
    version: doc.info.version,
    intro: inlineHtml(doc.info.description ?? ''),
    operations,
    errors: errorCodes(),
  };
}

/** The path of the example request (parameters filled in), or the template when there is none. */
function samplePath(op: Operation, path: string): string {
  const curl = op['x-codeSamples']?.find((s) => s.lang === 'curl')?.source ?? '';
  const url = /https?:\/\/[^\s]+/.exec(curl)?.[0];
  if (!url) return path;
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
