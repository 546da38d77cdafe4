/**
 * /openapi.json is input fit for code generators (docs/api.md, "Conventions"): unique operationIds
 * and tags, an example request and answer per operation, errors as one shared component with
 * `error` narrowed to the codes the route can answer, the quota headers declared once, and a
 * description that stands alone.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { STATUS } from '../../src/http/errors.ts';
import { startService, type TestService } from '../support/app.ts';

type Op = {
  operationId?: string;
  tags?: string[];
  parameters?: { in: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<
    string,
    { headers?: Record<string, { $ref: string }>; content?: Record<string, { schema?: any; example?: unknown }> }
  >;
  'x-codeSamples'?: { lang: string; source: string }[];
};

let svc: TestService;
let doc: any;
let operations: [string, Op][];
before(async () => {
  svc = await startService({ env: { MOD97_PUBLIC_URL: 'https://iban.mod97.example' } });
  doc = (await svc.call('/openapi.json')).body;
  operations = Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Op]),
  );
});
after(() => svc.close());

test('every operation has a unique operationId and a declared tag', () => {
  const ids = operations.map(([, op]) => op.operationId);
  assert.ok(
    ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id)),
    ids.join(', '),
  );
  assert.equal(new Set(ids).size, ids.length, 'operationIds repeat');
  const declared = new Set(doc.tags.map((t: { name: string }) => t.name));
  for (const [where, op] of operations) {
    assert.ok(op.tags?.length && op.tags.every((t) => declared.has(t)), `${where}: tags ${op.tags}`);
  }
  assert.equal(doc.paths['/v1/iban/validate'].post.operationId, 'validateIban');
});

test('every operation has an example request (body or parameters, and code samples) and answer', () => {
  for (const [where, op] of operations) {
    const success = Object.entries(op.responses).filter(([s]) => s.startsWith('2'));
    assert.ok(
      success.some(([, r]) => r.content?.['application/json']?.example !== undefined),
      `${where}: no example answer`,
    );
    const body = op.requestBody?.content['application/json'];
    if (body) assert.notEqual(body.example, undefined, `${where}: no example body`);
    for (const p of op.parameters ?? []) assert.notEqual(p.example, undefined, `${where}: a parameter without example`);
    assert.deepEqual(
      op['x-codeSamples']?.map((s) => s.lang),
      ['curl', 'JavaScript', 'Python'],
      `${where}: code samples`,
    );
  }
  const validate = doc.paths['/v1/iban/validate'].post as Op;
  assert.deepEqual(validate.requestBody?.content['application/json'].example, { iban: 'DE89 3704 0044 0532 0130 00' });
  const curl = validate['x-codeSamples']![0].source;
  assert.match(curl, /^curl -X POST https:\/\/iban\.mod97\.example\/v1\/iban\/validate/);
  assert.match(validate['x-codeSamples']![2].source, /^from mod97 import Mod97\n/);
  assert.match(validate['x-codeSamples']![2].source, /answer = mod97\.validate\("DE89 3704 0044 0532 0130 00"\)/);
  // A route the clients have no method for keeps the standard library's urllib.
  const checkout = doc.paths['/v1/card/checkout'].post as Op;
  assert.match(checkout['x-codeSamples']![2].source, /urllib\.request\.urlopen/);
});

test("every error answer refers to the shared Error component and lists the route's codes", () => {
  assert.deepEqual(doc.components.schemas.Error.required, ['error', 'message']);
  for (const [where, op] of operations) {
    for (const [status, response] of Object.entries(op.responses)) {
      if (Number(status) < 400) continue;
      const schema = response.content?.['application/json']?.schema;
      assert.equal(schema?.allOf?.[0]?.$ref, '#/components/schemas/Error', `${where} ${status}`);
      const codes: string[] = schema.allOf[1].properties.error.enum;
      assert.ok(codes.length > 0, `${where} ${status}: no codes`);
      for (const code of codes) assert.equal(String(STATUS[code as keyof typeof STATUS]), status, `${where} ${code}`);
    }
  }
  const codesOf = (path: string, method: string, status: number) =>
    doc.paths[path][method].responses[status].content['application/json'].schema.allOf[1].properties.error.enum;
  assert.deepEqual(codesOf('/v1/bic/{code}', 'get', 404), ['bic_not_found']);
  assert.ok(codesOf('/v1/keys/claim', 'post', 403).includes('unused_key'));
  assert.ok(codesOf('/v1/iban/validate', 'post', 402).includes('quota_exhausted'));
  // A route with no key never answers a key error.
  assert.equal(doc.paths['/v1/keys/generate'].post.responses[401], undefined);
});

test('the X-Quota-* headers are components, referred to by the answers of keyed routes', () => {
  for (const name of ['X-Quota-Used', 'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Month', 'X-Quota-Exhausted']) {
    assert.ok(doc.components.headers[name], name);
  }
  const validate = doc.paths['/v1/iban/validate'].post as Op;
  assert.equal(validate.responses[200].headers?.['X-Quota-Remaining'].$ref, '#/components/headers/X-Quota-Remaining');
  assert.equal(validate.responses[402].headers?.['X-Quota-Exhausted'].$ref, '#/components/headers/X-Quota-Exhausted');
});

test('"key optional" only where a call without a key succeeds', () => {
  const optional = operations
    .filter(([, op]) => (op as { security?: object[] }).security?.some((s) => Object.keys(s).length === 0))
    .map(([where]) => where);
  assert.deepEqual(optional.sort(), ['GET /v1/keys/usage', 'POST /v1/card/checkout', 'POST /v1/iban/validate']);
});

test('the description stands alone: no file of the repository', () => {
  assert.doesNotMatch(doc.info.description, /\.(md|ts|json)\b|docs\/|src\//);
  assert.match(doc.info.description, /Authorization: Bearer/);
});
