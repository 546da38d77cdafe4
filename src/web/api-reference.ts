/**
 * The API reference page, rendered on the server from the same OpenAPI document /openapi.json
 * serves: no client bundle, no CDN, nothing to load but our stylesheet.
 */
type Schema = { type?: unknown; description?: string; properties?: Record<string, Schema>; required?: string[] };
type Operation = {
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  400: 'Bad request',
  401: 'Key missing or not valid',
  402: 'Payment or quota needed',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Body too large',
  415: 'Not JSON',
  429: 'Too many',
  502: 'Payment provider failed',
  503: 'Unavailable',
};

const fieldsOf = (schema: Schema | undefined) =>
  Object.entries(schema?.properties ?? {}).map(([name, s]) => ({
    name,
    type: typeOf(s),
    required: new Set(schema?.required ?? []).has(name),
    description: s.description ?? '',
  }));

const typeOf = (s: Schema | undefined) => (Array.isArray(s?.type) ? s.type.join(' or ') : String(s?.type ?? 'object'));

/** The first success answer, field by field: what a client reads back. */
function firstSuccess(op: Operation) {
  const [status, answer] = Object.entries(op.responses ?? {}).find(([s]) => s.startsWith('2')) ?? [];
  const fields = fieldsOf(answer?.content?.['application/json']?.schema);
  return status && fields.length ? { status, fields } : null;
}

export function apiReference(doc: OpenApiDoc) {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody?.content?.['application/json']?.schema;
      return {
        id: `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-'),
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        description: op.description ?? '',
        auth: !op.security?.length
          ? 'No key'
          : op.security.some((s) => Object.keys(s).length === 0)
            ? 'Key optional'
            : 'Key required',
        params: (op.parameters ?? []).map((p) => ({
          name: p.name,
          where: p.in,
          type: typeOf(p.schema),
          required: Boolean(p.required),
          description: p.description ?? p.schema?.description ?? '',
        })),
        body: body?.properties ? { required: Boolean(op.requestBody?.required), fields: fieldsOf(body) } : null,
        statuses: Object.keys(op.responses ?? {}).map((status) => ({ status, label: STATUS_TEXT[status] ?? '' })),
        result: firstSuccess(op),
      };
    }),
  );
  return { title: doc.info.title, version: doc.info.version, operations };
}
