/**
 * MCP tools through the official SDK client over Streamable HTTP, against the real service on
 * each engine: a tool call answers its REST route's JSON and moves the same counters by the
 * same amount, refusals are tool errors with the REST body, and a bad key never reaches JSON-RPC.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService, type TestService } from '../support/app.ts';
import type { CallOptions } from '../support/http.ts';
import { connectMcp, engines } from './support.ts';
import { dereferenced } from '../support/openapi-doc.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';
const TYPO = 'DE89370400440532013001';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const ACCEPT = { accept: 'application/json, text/event-stream' };

interface Case {
  tool: string;
  args: Record<string, unknown>;
  path: string;
  rest?: CallOptions;
  /** Units the call draws (0 for refusals and free routes). */
  cost: number;
}

const CASES: Case[] = [
  { tool: 'validate_iban', args: { iban: IBAN }, path: '/v1/iban/validate', rest: { json: { iban: IBAN } }, cost: 1 },
  { tool: 'validate_iban', args: { iban: TYPO }, path: '/v1/iban/validate', rest: { json: { iban: TYPO } }, cost: 1 },
  {
    tool: 'validate_ibans',
    args: { ibans: [IBAN, TYPO, IBAN] },
    path: '/v1/iban/batch',
    rest: { json: { ibans: [IBAN, TYPO, IBAN] } },
    cost: 3,
  },
  { tool: 'lookup_bic', args: { bic: 'DEUTDEFF' }, path: '/v1/bic/DEUTDEFF', cost: 1 },
  {
    tool: 'check_compliance',
    args: { iban: IBAN },
    path: '/v1/iban/compliance',
    rest: { json: { iban: IBAN } },
    cost: 1,
  },
  { tool: 'lookup_swiss_clearing', args: { iid: '100' }, path: '/v1/ch/clearing/100', cost: 1 },
  {
    tool: 'validate_iban',
    args: { iban: IBAN, bic: 'COBADEFFXXX' },
    path: '/v1/iban/validate',
    rest: { json: { iban: IBAN, bic: 'COBADEFFXXX' } },
    cost: 1,
  },
  {
    tool: 'iban_from_account',
    args: { country: 'DE', bank_code: '37040044', account: '0532013000' },
    path: '/v1/iban/from-account',
    rest: { json: { country: 'DE', bank_code: '37040044', account: '0532013000' } },
    cost: 1,
  },
  {
    tool: 'extract_ibans',
    args: { text: `Zahlbar auf ${IBAN} oder ${TYPO}.` },
    path: '/v1/iban/extract',
    rest: { json: { text: `Zahlbar auf ${IBAN} oder ${TYPO}.` } },
    cost: 1,
  },
  {
    tool: 'validate_reference',
    args: { reference: 'RF18 5390 0754 7034' },
    path: '/v1/reference/validate',
    rest: { json: { reference: 'RF18 5390 0754 7034' } },
    cost: 1,
  },
  {
    tool: 'create_reference',
    args: { type: 'be_ogm', from: '0909337554' },
    path: '/v1/reference/create',
    rest: { json: { type: 'be_ogm', from: '0909337554' } },
    cost: 1,
  },
  {
    tool: 'check_payment',
    args: { creditor: { iban: IBAN, name: 'Musterfirma GmbH' }, currency: 'EUR', amount: 10 },
    path: '/v1/payment/check',
    rest: { json: { creditor: { iban: IBAN, name: 'Musterfirma GmbH' }, currency: 'EUR', amount: 10 } },
    cost: 1,
  },
  {
    tool: 'read_payment_qr',
    args: { payload: `BCD\n002\n1\nSCT\n\nMusterfirma GmbH\n${IBAN}\nEUR10.00` },
    path: '/v1/payment/qr/read',
    rest: { json: { payload: `BCD\n002\n1\nSCT\n\nMusterfirma GmbH\n${IBAN}\nEUR10.00` } },
    cost: 1,
  },
  // Refusals: refunded on both sides.
  {
    // The tool always asks for a PNG; a refusal is the REST error body as text.
    tool: 'make_payment_qr',
    args: { creditor: { iban: 'CH4431999123000889012', name: 'X' }, currency: 'CHF' },
    path: '/v1/payment/qr',
    rest: { json: { creditor: { iban: 'CH4431999123000889012', name: 'X' }, currency: 'CHF', format: 'png' } },
    cost: 0,
  },
  {
    tool: 'create_reference',
    args: { type: 'be_ogm', from: '09093375540' },
    path: '/v1/reference/create',
    rest: { json: { type: 'be_ogm', from: '09093375540' } },
    cost: 0,
  },
  { tool: 'lookup_bic', args: { bic: 'DEUT-DEFF' }, path: '/v1/bic/DEUT-DEFF', cost: 0 },
  { tool: 'lookup_swiss_clearing', args: { iid: '99999' }, path: '/v1/ch/clearing/99999', cost: 0 },
  {
    tool: 'iban_from_account',
    args: { country: 'DE', account: '0532013000' },
    path: '/v1/iban/from-account',
    rest: { json: { country: 'DE', account: '0532013000' } },
    cost: 0,
  },
  { tool: 'validate_iban', args: { iban: 42 }, path: '/v1/iban/validate', rest: { json: { iban: 42 } }, cost: 0 },
  {
    tool: 'check_compliance',
    args: { iban: IBAN, bic: 'DEUTDEFF' },
    path: '/v1/iban/compliance',
    rest: { json: { iban: IBAN, bic: 'DEUTDEFF' } },
    cost: 0,
  },
  { tool: 'get_usage', args: {}, path: '/v1/keys/usage', cost: 0 },
];

const structured = (result: object) => (result as { structuredContent: Record<string, any> }).structuredContent;

const QUOTA = ['x-quota-used', 'x-quota-limit', 'x-quota-remaining', 'x-quota-month'];
const quotaHeaders = (headers: Record<string, unknown>) => QUOTA.map((h) => headers[h]);

for (const engine of engines()) {
  // Started at the top level: startService ties its own clean-up to the test that starts it.
  const svc = (engine.skip ? null : await startService({ databaseUrl: engine.databaseUrl })) as TestService;
  describe(`MCP tools are metered like REST (${engine.name})`, { skip: engine.skip }, () => {
    test('initialize and list tools: each with schemas from its route, readOnlyHint and its cost', async () => {
      const { client } = await connectMcp(svc.url, { from: '127.0.1.1' });
      assert.equal(client.getServerVersion()?.name, 'mod97');
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      assert.deepEqual(Object.keys(byName).sort(), [
        'check_compliance',
        'check_payment',
        'create_key',
        'create_reference',
        'extract_ibans',
        'get_usage',
        'iban_from_account',
        'lookup_bic',
        'lookup_swiss_clearing',
        'make_payment_qr',
        'read_payment_qr',
        'validate_iban',
        'validate_ibans',
        'validate_reference',
      ]);
      for (const tool of tools) {
        // Every tool only reads, except create_key, which creates a key.
        assert.equal(tool.annotations?.readOnlyHint, tool.name !== 'create_key', tool.name);
        assert.ok(tool.outputSchema, tool.name);
        assert.match(tool.description ?? '', /isError/, tool.name);
      }
      // The same schemas as the routes' own, as the OpenAPI document shows them.
      const openapi = dereferenced((await svc.call('/openapi.json')).body);
      const validateBody = openapi.paths['/v1/iban/validate'].post.requestBody.content['application/json'].schema;
      assert.deepEqual(byName.validate_iban.inputSchema.properties, validateBody.properties);
      assert.deepEqual(byName.lookup_bic.inputSchema.required, ['bic']);
      // No length bound on either: a code of any length is the route's own invalid_bic (length).
      const bic = (byName.lookup_bic.inputSchema.properties as Record<string, Record<string, unknown>>).bic;
      const code = openapi.paths['/v1/bic/{code}'].get.parameters[0];
      assert.deepEqual([bic.type, bic.maxLength], [code.schema.type, code.schema.maxLength]);
      assert.equal(code.schema.maxLength, undefined);
      assert.match(byName.validate_ibans.description ?? '', /1 request per IBAN/);
      assert.match(byName.check_compliance.description ?? '', /1 request of the API key's quota/);
      assert.match(byName.get_usage.description ?? '', /Free/);
    });

    test('every tool call answers its REST JSON and moves the same counters by the same amount', async () => {
      const restKey = await svc.newKey('127.0.1.2');
      const mcpKey = await svc.newKey('127.0.1.3');
      const mcp = await connectMcp(svc.url, { key: mcpKey, from: '127.0.1.3' });
      let expected = 0;
      for (const c of CASES) {
        const rest = await svc.call(c.path, { ...c.rest, key: restKey, from: '127.0.1.2' });
        const result = await mcp.client.callTool({ name: c.tool, arguments: c.args });
        const label = `${c.tool} ${JSON.stringify(c.args)}`;
        assert.equal(result.isError ?? false, rest.status >= 400, label);
        // Usage names the key it was asked with: each side its own.
        const own = (body: unknown) => (c.tool === 'get_usage' ? { ...(body as object), key_prefix: '-' } : body);
        assert.deepEqual(own(result.structuredContent), own(rest.body), label);
        assert.deepEqual(own(JSON.parse((result.content as { text: string }[])[0].text)), own(rest.body), label);
        // The /mcp answer carries the balance after the call, as the REST answer does.
        assert.deepEqual(quotaHeaders(mcp.lastAnswer().headers), quotaHeaders(rest.headers), label);
        expected += c.cost;
        const [restUsage, mcpUsage] = await Promise.all([
          svc.call('/v1/keys/usage', { key: restKey }),
          svc.call('/v1/keys/usage', { key: mcpKey }),
        ]);
        assert.deepEqual([mcpUsage.body.used, restUsage.body.used], [expected, expected], label);
      }
      assert.equal(expected, 15);
    });

    test('validate_iban without a key runs on the no-key trial of the caller network', async () => {
      const mcp = await connectMcp(svc.url, { from: '127.0.1.4' });
      const result = await mcp.client.callTool({ name: 'validate_iban', arguments: { iban: IBAN } });
      const rest = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.1.5' });
      assert.equal(rest.body.trial.calls_left_today, 24);
      assert.deepEqual(result.structuredContent, rest.body);
      assert.equal((await svc.call('/v1/keys/usage', { from: '127.0.1.4' })).body.used, 1);
      const usage = await mcp.client.callTool({ name: 'get_usage', arguments: {} });
      assert.deepEqual(
        [structured(usage).tier, structured(usage).used, structured(usage).basis],
        ['trial', 1, 'daily'],
      );
      // Other data tools need a key or a payment, as their routes do.
      const bic = await mcp.client.callTool({ name: 'lookup_bic', arguments: { bic: 'DEUTDEFF' } });
      const restBic = await svc.call('/v1/bic/DEUTDEFF', { from: '127.0.1.5' });
      assert.equal(restBic.status, 402);
      assert.equal(bic.isError, true);
      // The REST body said of the tool, with the way to a key over MCP added: create_key, then the key in _meta.
      const { message, options, ...sameFields } = structured(bic);
      const { message: restMessage, options: restOptions, ...restFields } = restBic.body;
      assert.deepEqual(sameFields, restFields);
      assert.equal(restMessage, 'This route needs an API key.');
      assert.ok(String(message).startsWith('This tool needs an API key. '), String(message));
      assert.match(String(message), /create_key/);
      assert.deepEqual(options, [{ ...restOptions[0], tool: 'create_key' }]);
      assert.equal((await svc.call('/v1/keys/usage', { from: '127.0.1.4' })).body.used, 1);
    });

    test('an exhausted key gets quota_exhausted as a tool error with the options a REST client sees', async () => {
      const key = await svc.newKey('127.0.1.6');
      for (let i = 0; i < 25; i++) {
        const r = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, key, from: '127.0.1.6' });
        assert.equal(r.status, 200);
      }
      const mcp = await connectMcp(svc.url, { key, from: '127.0.1.6' });
      const result = await mcp.client.callTool({ name: 'validate_ibans', arguments: { ibans: [IBAN] } });
      const rest = await svc.call('/v1/iban/batch', { json: { ibans: [IBAN] }, key, from: '127.0.1.6' });
      assert.equal(rest.status, 402);
      assert.equal(result.isError, true);
      assert.equal(structured(result).error, 'quota_exhausted');
      assert.deepEqual(result.structuredContent, rest.body);
      assert.deepEqual(
        (structured(result).options as { type: string }[]).map((o) => o.type),
        ['claim', 'wait'],
      );
      const answer = mcp.lastAnswer();
      assert.equal(answer.status, 200, 'a tool error is a JSON-RPC result');
      assert.equal(answer.headers['x-quota-exhausted'], 'true');
      assert.deepEqual(quotaHeaders(answer.headers), ['25', '25', '0', '2026-11']);
      assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 25);
    });

    test('an unknown or rotated key is HTTP 401 invalid_api_key before any JSON-RPC, initialize included', async () => {
      const unknown = `ifk_${'ab'.repeat(32)}`;
      const credentials: Record<string, string>[] = [{ authorization: `Bearer ${unknown}` }, { 'x-api-key': unknown }];
      for (const headers of credentials) {
        const r = await svc.call('/mcp', { json: INITIALIZE, headers: { ...ACCEPT, ...headers } });
        assert.equal(r.status, 401);
        assert.deepEqual(Object.keys(r.body).sort(), ['error', 'message']);
        assert.equal(r.body.error, 'invalid_api_key');
      }
      const key = await svc.newKey('127.0.1.7');
      const rotated = await svc.call('/v1/keys/rotate', { method: 'POST', key });
      assert.equal(rotated.status, 200);
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      const old = await svc.call('/mcp', { json: list, key, headers: ACCEPT });
      assert.deepEqual([old.status, old.body.error], [401, 'invalid_api_key']);
      await assert.rejects(connectMcp(svc.url, { key, from: '127.0.1.7' }));
      const fresh = await connectMcp(svc.url, { key: rotated.body.api_key, from: '127.0.1.7' });
      assert.equal((await fresh.client.listTools()).tools.length, 14);
      // Every answer on a key carries its quota headers, initialize included.
      assert.deepEqual(quotaHeaders(fresh.answers[0].headers), ['0', '25', '25', '2026-11']);
    });

    test('a key inside tool arguments is refused like one in a REST body, and not used', async () => {
      const key = await svc.newKey('127.0.1.8');
      const call = {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'validate_iban', arguments: { iban: key } },
      };
      const r = await svc.call('/mcp', { json: call, headers: ACCEPT, from: '127.0.1.8' });
      assert.deepEqual([r.status, r.body.error], [400, 'key_in_body']);
      assert.equal((await svc.call('/v1/keys/usage', { from: '127.0.1.8' })).body.used, 0);
    });

    test('a browser page of another site is refused before credentials (DNS rebinding); agents send no Origin', async () => {
      for (const origin of ['http://evil.example.com', 'null']) {
        const r = await svc.call('/mcp', {
          json: INITIALIZE,
          headers: { ...ACCEPT, origin },
          key: `ifk_${'ab'.repeat(32)}`,
        });
        assert.deepEqual([r.status, r.body.error], [403, 'cross_site_request'], origin);
      }
      const own = await svc.call('/mcp', { json: INITIALIZE, headers: { ...ACCEPT, origin: svc.url } });
      assert.equal(own.status, 200);
    });

    test('GET and DELETE /mcp are 405 with Allow: POST (a stateless server)', async () => {
      for (const method of ['GET', 'DELETE']) {
        const r = await svc.call('/mcp', { method, headers: { accept: 'text/event-stream' } });
        assert.deepEqual([r.status, r.headers.allow, r.body.error], [405, 'POST', 'method_not_allowed']);
      }
    });
  });
}
