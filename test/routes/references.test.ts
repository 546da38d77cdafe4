/**
 * POST /v1/reference/validate and /create over a real socket on each store engine, and the MCP
 * tools validate_reference and create_reference through the official SDK client: the answers,
 * their metering (1 per call, a key or a payment, refunded on a 400), retries with an
 * Idempotency-Key, and their place in OpenAPI and llms.txt.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import * as examples from '../../src/api/examples.ts';
import { X402_PRICES_USD } from '../../src/plans.ts';
import { connectMcp, engines } from '../mcp/support.ts';
import { startService, type TestService } from '../support/app.ts';

for (const engine of engines()) {
  // Started at the top level: startService ties its own clean-up to the test that starts it.
  const svc = (engine.skip ? null : await startService({ databaseUrl: engine.databaseUrl })) as TestService;

  describe(`POST /v1/reference/validate and /create (${engine.name})`, { skip: engine.skip }, () => {
    test('validate answers the type, the verdict, the print form and suggestions, for 1 request', async () => {
      const key = await svc.newKey('127.0.34.1');
      const ok = await svc.call('/v1/reference/validate', {
        json: { reference: '+++090/9337/55493+++' },
        key,
        from: '127.0.34.1',
      });
      assert.equal(ok.status, 200);
      assert.deepEqual(
        [ok.body.reference, ok.body.type, ok.body.valid, ok.body.formatted, ok.body.errors, ok.body.suggestions],
        ['090933755493', 'be_ogm', true, '+++090/9337/55493+++', [], []],
      );
      assert.ok(ok.body.attribution, 'a free key owes attribution');
      assert.equal(ok.headers['x-quota-used'], '1');

      const typo = await svc.call('/v1/reference/validate', {
        json: { reference: 'RF19 5390 0754 7034' },
        key,
        from: '127.0.34.1',
      });
      assert.equal(typo.status, 200);
      assert.equal(typo.body.valid, false);
      assert.equal(typo.body.errors[0].code, 'reference_check_failed');
      assert.equal(typo.body.suggestions[0], 'RF18539007547034');

      const unknown = await svc.call('/v1/reference/validate', {
        json: { reference: '1234561' },
        key,
        from: '127.0.34.1',
      });
      assert.deepEqual(
        [unknown.body.type, unknown.body.valid, unknown.body.errors[0].code, unknown.body.errors[0].candidates],
        [null, false, 'reference_type_unknown', ['fi']],
      );
      const finnish = await svc.call('/v1/reference/validate', {
        json: { reference: '1234561', country: 'FI' },
        key,
        from: '127.0.34.1',
      });
      assert.deepEqual([finnish.body.type, finnish.body.valid, finnish.body.formatted], ['fi', true, '12 34561']);
      assert.equal(finnish.headers['x-quota-used'], '4', 'an invalid reference is an answer, charged like any');
    });

    test('create makes the reference and answers it as validate does; a refused `from` is 400 and refunded', async () => {
      const key = await svc.newKey('127.0.34.2');
      const made = await svc.call('/v1/reference/create', {
        json: { type: 'qrr', from: '21000000000313947143000901' },
        key,
        from: '127.0.34.2',
      });
      assert.equal(made.status, 200);
      assert.deepEqual(
        [made.body.reference, made.body.type, made.body.valid, made.body.formatted],
        ['210000000003139471430009017', 'qrr', true, '21 00000 00003 13947 14300 09017'],
      );
      const kid = await svc.call('/v1/reference/create', {
        json: { type: 'no_kid', from: '987654321', algorithm: 'mod11' },
        key,
        from: '127.0.34.2',
      });
      assert.deepEqual([kid.status, kid.body.reference], [200, '9876543211']);

      for (const [body, error] of [
        [{ type: 'rf', from: '' }, 'reference_empty'],
        [{ type: 'fi', from: '12-3' }, 'reference_characters'],
        [{ type: 'be_ogm', from: '12345678901' }, 'reference_length'],
        [{ type: 'no_kid', from: '6', algorithm: 'mod11' }, 'reference_not_creatable'],
        [{ type: 'fi', from: '123', algorithm: 'mod11' }, 'invalid_request'],
        [{ type: 'iso', from: '123' }, 'invalid_request'],
      ] as const) {
        const r = await svc.call('/v1/reference/create', { json: body, key, from: '127.0.34.2' });
        assert.deepEqual([r.status, r.body.error], [400, error], JSON.stringify(body));
        assert.equal(typeof r.body.message, 'string');
      }
      const usage = await svc.call('/v1/keys/usage', { key });
      assert.equal(usage.body.used, 2, 'only the two served calls are counted');
    });

    test('without a key or a payment it is 402 (no trial); an unknown key is 401', async () => {
      for (const path of ['/v1/reference/validate', '/v1/reference/create']) {
        const body = path.endsWith('validate') ? { reference: 'RF18539007547034' } : { type: 'rf', from: '1' };
        const none = await svc.call(path, { json: body, from: '127.0.34.3' });
        assert.deepEqual(
          [none.status, none.body.error, none.body.cause?.reason],
          [402, 'payment_required', 'key_or_payment_required'],
        );
        const wrong = await svc.call(path, { json: body, key: `ifk_${'0'.repeat(64)}`, from: '127.0.34.3' });
        assert.deepEqual([wrong.status, wrong.body.error], [401, 'invalid_api_key']);
      }
    });

    test('a retry with the same Idempotency-Key is answered again, not charged again', async () => {
      const key = await svc.newKey('127.0.34.4');
      const send = () =>
        svc.call('/v1/reference/create', {
          json: { type: 'rf', from: 'INVOICE2026' },
          key,
          from: '127.0.34.4',
          headers: { 'idempotency-key': 'ref-create-1' },
        });
      const first = await send();
      const again = await send();
      assert.equal(first.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1);
    });

    test('the declared examples (OpenAPI, /docs, docs/api.md) are what the service answers', async () => {
      const key = await svc.newKey('127.0.34.7');
      for (const example of [examples.referenceValidate, examples.referenceCreate]) {
        const r = await svc.call(example.path, { json: example.body, key, from: '127.0.34.7' });
        const { attribution: _, ...answer } = r.body;
        const { attribution: __, ...declared } = example.answer as Record<string, unknown>;
        assert.deepEqual([r.status, answer], [example.status, declared], example.path);
      }
    });

    test('is declared like the other data routes: OpenAPI, llms.txt, x402 price', async () => {
      const doc = (await svc.call('/openapi.json')).body;
      const op = doc.paths['/v1/reference/validate'].post;
      assert.equal(op.operationId, 'validateReference');
      assert.ok(doc.paths['/v1/reference/create'].post.responses['400']);
      const llms = (await svc.call('/llms.txt')).text;
      for (const path of ['/v1/reference/validate', '/v1/reference/create']) {
        const line = llms.split('\n').find((l) => l.startsWith(`- POST ${svc.url}${path}:`));
        assert.match(line ?? '', /cost: 1 request; x402 price: \$0\.002/, path);
      }
      assert.deepEqual([X402_PRICES_USD.referenceValidate, X402_PRICES_USD.referenceCreate], [0.002, 0.002]);
    });
  });

  describe(`MCP tools validate_reference and create_reference (${engine.name})`, { skip: engine.skip }, () => {
    // Closed when the engine's last suite ends, before the file's hooks drop the PostgreSQL schema it works in.
    after(() => svc?.close());
    test('answer the REST JSON and draw the same quota', async () => {
      const restKey = await svc.newKey('127.0.34.5');
      const mcpKey = await svc.newKey('127.0.34.6');
      const mcp = await connectMcp(svc.url, { key: mcpKey, from: '127.0.34.6' });
      const { tools } = await mcp.client.listTools();
      const validate = tools.find((t) => t.name === 'validate_reference');
      const create = tools.find((t) => t.name === 'create_reference');
      assert.ok(validate && create, 'both tools are listed');
      assert.deepEqual(validate.inputSchema.required, ['reference']);
      assert.deepEqual(create.inputSchema.required, ['type', 'from']);
      assert.match(validate.description ?? '', /Cost: 1 request/);

      const args = { reference: '21 00000 00003 13947 14300 09017' };
      const result = await mcp.client.callTool({ name: 'validate_reference', arguments: args });
      const rest = await svc.call('/v1/reference/validate', { json: args, key: restKey, from: '127.0.34.5' });
      assert.equal(result.isError ?? false, false);
      assert.deepEqual(result.structuredContent, rest.body);
      assert.equal((result.structuredContent as { type: string }).type, 'qrr');

      const made = await mcp.client.callTool({
        name: 'create_reference',
        arguments: { type: 'se_ocr', from: '170001' },
      });
      assert.equal((made.structuredContent as { reference: string }).reference, '1700012');
      const refused = await mcp.client.callTool({
        name: 'create_reference',
        arguments: { type: 'fi', from: '12' },
      });
      assert.equal(refused.isError, true);
      assert.equal((refused.structuredContent as { error: string }).error, 'reference_length');
      assert.equal((await svc.call('/v1/keys/usage', { key: mcpKey })).body.used, 2);
    });
  });
}
