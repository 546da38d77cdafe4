/**
 * /openapi.json is input fit for code generators (docs/api.md, "Conventions"): unique operationIds
 * and tags, an example request and answer per operation, errors as one shared component with
 * `error` narrowed to the codes the route can answer, the quota headers declared once, and a
 * description that stands alone.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
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

test("every error answer refers to the shared Error (402: PaymentRequired) component and lists the route's codes", () => {
  assert.deepEqual(doc.components.schemas.Error.required, ['error', 'message']);
  for (const [where, op] of operations) {
    for (const [status, response] of Object.entries(op.responses)) {
      if (Number(status) < 400) continue;
      const schema = response.content?.['application/json']?.schema;
      const named = status === '402' ? 'PaymentRequired' : 'Error';
      assert.equal(schema?.allOf?.[0]?.$ref, `#/components/schemas/${named}`, `${where} ${status}`);
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
  // A route that needs no key never says one is missing, but judges a credential header sent.
  assert.deepEqual(codesOf('/v1/keys/generate', 'post', 401), ['invalid_api_key']);
});

test('the X-Quota-* headers are components, referred to by the answers of keyed routes', () => {
  for (const name of ['X-Quota-Used', 'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Month', 'X-Quota-Exhausted']) {
    assert.ok(doc.components.headers[name], name);
  }
  const validate = doc.paths['/v1/iban/validate'].post as Op;
  assert.equal(validate.responses[200].headers?.['X-Quota-Remaining'].$ref, '#/components/headers/X-Quota-Remaining');
  assert.equal(validate.responses[402].headers?.['X-Quota-Exhausted'].$ref, '#/components/headers/X-Quota-Exhausted');
});

test('Retry-After is declared on every answer that carries it, required where every code of the status does', () => {
  type Header = { required?: boolean; description?: string; schema?: { type?: string } };
  const retryAfterOf = (path: string, method: string, status: number): Header | undefined =>
    doc.paths[path][method].responses[status]?.headers?.['Retry-After'];
  for (const [path, method] of [
    ['/v1/iban/validate', 'post'],
    ['/v1/iban/batch', 'post'],
    ['/v1/payment/qr', 'post'],
  ]) {
    // 409 idempotency_in_progress sends Retry-After: 1; idempotency_answer_not_kept, the other 409, none.
    const conflict = retryAfterOf(path, method, 409);
    assert.ok(conflict, `${path} 409`);
    assert.equal(conflict.required, false);
    assert.match(conflict.description ?? '', /\b1 with `idempotency_in_progress`/);
    assert.equal(conflict.schema?.type, 'integer');
    // 503 storage_unavailable sends Retry-After: 5, and it is this route's only 503.
    const unavailable = retryAfterOf(path, method, 503);
    assert.ok(unavailable, `${path} 503`);
    assert.equal(unavailable.required, true);
    assert.match(unavailable.description ?? '', /\b5 with `storage_unavailable`/);
  }
  assert.ok(retryAfterOf('/v1/bic/{code}', 'get', 503), 'a metered GET: its 503 too');
  // generate's 503 may also be verification_unavailable, which sends none.
  assert.equal(retryAfterOf('/v1/keys/generate', 'post', 503)?.required, false);
  assert.equal(retryAfterOf('/v1/keys/generate', 'post', 429)?.required, true);
  // The card success page's 202 (payment not confirmed yet) says when to ask again.
  assert.match(retryAfterOf('/v1/card/success', 'get', 202)?.description ?? '', /\b3\b/);
  // Where no code of a status sends it, it is not declared.
  assert.equal(retryAfterOf('/v1/iban/validate', 'post', 400), undefined);
  assert.equal(retryAfterOf('/v1/iban/validate', 'post', 200), undefined);
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

/** The component a body's schema names: `{$ref}`, or `{allOf: [{$ref}, narrowing]}` for errors. */
function componentOf(schema: any): string | undefined {
  const ref: unknown = schema?.$ref ?? schema?.allOf?.[0]?.$ref;
  return typeof ref === 'string' ? ref.replace(/^#\/components\/schemas\//, '') : undefined;
}

test('every request and answer body is a named component with a title', () => {
  const inline: string[] = [];
  for (const [where, op] of operations) {
    const bodies: [string, any][] = [
      ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]: [string, any]) => [`body ${type}`, m.schema]),
      ...Object.entries(op.responses).flatMap(([status, r]) =>
        Object.entries(r.content ?? {})
          .filter(([type]) => type === 'application/json')
          .map(([type, m]): [string, any] => [`${status} ${type}`, m.schema]),
      ),
    ] as [string, any][];
    for (const [what, schema] of bodies) {
      const name = componentOf(schema);
      const component = name === undefined ? undefined : doc.components.schemas[name];
      if (!component || component.title !== name)
        inline.push(`${where} ${what}: ${JSON.stringify(schema).slice(0, 80)}`);
    }
  }
  assert.deepEqual(inline, [], 'bodies without a $ref to a titled component');
  for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
    assert.equal(schema.title, name, `components.schemas.${name} is titled by its name`);
    assert.match(name, /^[A-Z][A-Za-z0-9]*$/, 'PascalCase');
  }
  const named = (path: string, method: string, status: string) =>
    componentOf(doc.paths[path][method].responses[status].content['application/json'].schema);
  assert.equal(named('/v1/iban/validate', 'post', '200'), 'Validation');
  assert.equal(named('/v1/iban/batch', 'post', '200'), 'Batch');
  assert.equal(named('/v1/keys/usage', 'get', '200'), 'Usage');
  // A titled member is a component of its own, referred to where it is used.
  assert.equal(doc.components.schemas.Batch.properties.results.items.$ref, '#/components/schemas/IbanResult');
});

test('the 402 body is typed: cause, used, limit, month, basis and options by type', () => {
  const body = doc.components.schemas.PaymentRequired;
  for (const field of ['error', 'message', 'cause', 'used', 'limit', 'month', 'basis', 'options'])
    assert.ok(body.properties[field], field);
  assert.deepEqual(body.required, ['error', 'message', 'options']);
  const kinds = body.properties.options.items.anyOf.map((o: { $ref: string }) => {
    const offer = doc.components.schemas[componentOf(o)!];
    return offer.properties.type.enum[0];
  });
  assert.deepEqual(kinds, ['generate_key', 'claim', 'credits', 'x402', 'wait', 'card']);
});

test('openapi-typescript generates a client that a strict consumer compiles against', async () => {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const dir = mkdtempSync(join(tmpdir(), 'mod97-openapi-ts-'));
  writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
  writeFileSync(
    join(dir, 'consumer.ts'),
    `import type { components, paths } from './api.js';
type Schemas = components['schemas'];
export const request: paths['/v1/iban/validate']['post']['requestBody'] = {
  content: { 'application/json': { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' } },
};
export const verdict = (v: Schemas['Validation']): string =>
  v.valid ? (v.bank?.name ?? v.iban) : v.errors.map((e) => e.code).join(', ');
export const firstOfBatch = (b: Schemas['Batch']): Schemas['IbanResult'] | undefined => b.results[0];
type Refusal = paths['/v1/iban/validate']['post']['responses'][402]['content']['application/json'];
/** The narrowed code and the options, switched on by their type. */
export function nextStep(r: Refusal): string {
  const code: 'payment_required' | 'quota_exhausted' = r.error;
  for (const option of r.options) {
    switch (option.type) {
      case 'generate_key': return option.method + ' ' + option.url;
      case 'claim': return String(option.raises_limit_to);
      case 'credits': return option.pack + ' ' + option.price_usd;
      case 'x402': return String(option.price_usd);
      case 'wait': return option.resets_at;
      case 'card': return option.url;
    }
  }
  return code + (r.cause?.reason ?? '') + (r.used ?? '') + (r.limit ?? '');
}
export const usage = (u: paths['/v1/keys/usage']['get']['responses'][200]['content']['application/json']): number =>
  u.remaining;
// @ts-expect-error an IBAN is a string
export const wrong: Schemas['ValidationRequest'] = { iban: 42 };
`,
  );
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const args = ['--strict', '--noEmit', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'nodenext'];
  const run = await promisify(execFile)(process.execPath, [tsc, ...args, join(dir, 'consumer.ts')], { cwd: dir }).catch(
    (err: { stdout: string; stderr: string }) => ({ stdout: err.stdout, stderr: err.stderr, failed: true }),
  );
  assert.equal('failed' in run, false, `tsc: ${run.stdout}${run.stderr}`);
});
