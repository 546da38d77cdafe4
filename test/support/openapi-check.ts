/**
 * Holds every answer the tests receive to the service's own `/openapi.json`, with openapi-backend's
 * validator (Ajv over the declared schemas): the status must be declared for the operation, the
 * content type among those declared for that status, and a JSON body must match its schema.
 * Paths the document does not describe (pages, discovery files, /mcp) are not checked.
 */
import assert from 'node:assert/strict';
import { type AjvCustomizer, OpenAPIBackend, type Operation } from 'openapi-backend';
import type { Reply } from './http.ts';

type Responses = Record<string, { content?: Record<string, unknown> }>;

export interface ResponseChecker {
  check(method: string, path: string, reply: Reply): void;
}

/**
 * The validators of each distinct document, built once per test process: every service a file
 * starts serves the same document unless its config changes it, and building openapi-backend's
 * validators (an Ajv per operation, each compiling the JSON Schema meta-schema) was a fifth of a
 * typical file's CPU. The document names its own address (each test service has its own port), so
 * it is keyed with that address taken out.
 */
const backends = new Map<string, Promise<OpenAPIBackend>>();

function backendFor(served: Reply): Promise<OpenAPIBackend> {
  const origin: unknown = served.body?.servers?.[0]?.url;
  const text = typeof origin === 'string' ? served.text.replaceAll(origin, 'http://service.test') : served.text;
  let backend = backends.get(text);
  if (!backend) {
    const definition = JSON.parse(text);
    // openapi-backend finds operations by id; the document need not carry one, so name them here.
    for (const [path, operations] of Object.entries<Record<string, { operationId?: string }>>(definition.paths ?? {})) {
      for (const [method, operation] of Object.entries(operations)) operation.operationId ??= `${method} ${path}`;
    }
    // One Ajv per kind of check, not one per operation: the schemas carry no $id to collide on.
    const ajvs = new Map<string, ReturnType<AjvCustomizer>>();
    const customizeAjv: AjvCustomizer = (ajv, _opts, context) => {
      const shared = ajvs.get(context) ?? ajv;
      ajvs.set(context, shared);
      return shared;
    };
    // The schemas themselves are held to JSON Schema by Redocly's lint (openapi-lint.test.ts), so
    // Ajv need not compile its meta-schema to check them again.
    const ajvOpts = { validateSchema: false };
    const api = new OpenAPIBackend({ definition, quick: true, ajvOpts, customizeAjv });
    backend = api.init();
    backends.set(text, backend);
  }
  return backend;
}

/** Reads the document once from the service and checks replies against it. */
export async function responseChecker(fetchDocument: () => Promise<Reply>): Promise<ResponseChecker> {
  const served = await fetchDocument();
  assert.equal(served.status, 200, 'GET /openapi.json');
  const api = await backendFor(served);
  return {
    check(method, path, reply) {
      if (method === 'HEAD' || reply.status === 0) return;
      // openapi-backend ignores a trailing slash; the service's router does not, so such a path is
      // no operation's (docs/api.md, "What a 404 names").
      if (path.length > 1 && path.endsWith('/')) return;
      const operation = api.router.matchOperation({ method, path, headers: {} }) as Operation | undefined;
      if (!operation) return;
      const where = `${method} ${path} answered ${reply.status}`;
      const responses = (operation.responses ?? {}) as Responses;
      const declared = responses[reply.status] ?? responses[`${String(reply.status)[0]}XX`] ?? responses.default;
      assert.ok(declared, `${where}, a status /openapi.json does not declare: ${reply.text.slice(0, 200)}`);
      const contentType = String(reply.headers['content-type'] ?? '')
        .split(';')[0]
        .trim();
      if (!declared.content || !contentType) return;
      assert.ok(
        contentType in declared.content,
        `${where} as ${contentType}; declared: ${Object.keys(declared.content).join(', ')}`,
      );
      if (contentType !== 'application/json') return;
      const result = api.validateResponse(reply.body, operation, reply.status);
      assert.ok(result.valid, `${where}, a body unlike its schema: ${JSON.stringify(result.errors)}\n${reply.text}`);
    },
  };
}
