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
  responses?: Record<string, { description?: string }>;
};
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const typeOf = (s: Schema | undefined) => (Array.isArray(s?.type) ? s.type.join(' or ') : String(s?.type ?? 'object'));

export function apiReference(doc: OpenApiDoc) {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody?.content?.['application/json']?.schema;
      const required = new Set(body?.required ?? []);
      return {
        id: `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-'),
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        description: op.description ?? '',
        auth: !op.security
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
        body: body?.properties
          ? {
              required: Boolean(op.requestBody?.required),
              fields: Object.entries(body.properties).map(([name, s]) => ({
                name,
                type: typeOf(s),
                required: required.has(name),
                description: s.description ?? '',
              })),
            }
          : null,
        responses: Object.entries(op.responses ?? {}).map(([status, r]) => ({
          status,
          description: r.description ?? '',
        })),
      };
    }),
  );
  return { title: doc.info.title, version: doc.info.version, operations };
}
