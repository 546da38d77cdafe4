/**
 * An agent with no key on its connection, as the official SDK client runs it: the 402 names
 * create_key, create_key gives a key, and the key goes with each later call in
 * `params._meta["mod97/api-key"]`, on the same connection. A key in the arguments stays refused.
 * Every tool's input schema is an object of described properties, with no top-level oneOf.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { connectMcp } from './support.ts';

const IBAN = 'DE89370400440532013000';
const KEY_META = 'mod97/api-key';
const ACCEPT = { accept: 'application/json, text/event-stream' };

describe('a key per tool call', () => {
  test('a 402 names create_key; its key, sent in _meta, serves the next call on the same connection', async () => {
    const svc = await startService();
    const from = '127.0.9.1';
    const { client } = await connectMcp(svc.url, { from });

    const refused = await client.callTool({ name: 'validate_ibans', arguments: { ibans: [IBAN] } });
    assert.equal(refused.isError, true);
    const body = refused.structuredContent as { error: string; message: string; options: Record<string, unknown>[] };
    assert.equal(body.error, 'payment_required');
    // Said of the tool, naming no x402 payment on a server without that rail.
    assert.match(body.message, /^This tool needs an API key\. Without a key: call the create_key tool/);
    assert.match(body.message, /_meta\["mod97\/api-key"\]/);
    const generate = body.options.find((o) => o.type === 'generate_key');
    assert.equal(generate?.tool, 'create_key');
    assert.match((refused.content as { text: string }[])[0].text, /create_key/);

    const created = await client.callTool({ name: 'create_key', arguments: {} });
    const key = (created.structuredContent as { api_key: string }).api_key;
    const served = await client.callTool({
      name: 'validate_ibans',
      arguments: { ibans: [IBAN, IBAN] },
      _meta: { [KEY_META]: key },
    });
    assert.equal(served.isError ?? false, false, JSON.stringify(served.structuredContent));
    assert.equal((served.structuredContent as { count: number }).count, 2);
    // Charged to that key, and the connection itself still has none.
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 2);
    const again = await client.callTool({ name: 'lookup_bic', arguments: { bic: 'COBADEFFXXX' } });
    assert.equal((again.structuredContent as { error: string }).error, 'payment_required');
  });

  test('a key in _meta stands in for the connection key; an unknown one is the 401 as a tool error', async () => {
    const svc = await startService();
    const connectionKey = await svc.newKey('127.0.9.2');
    const callKey = await svc.newKey('127.0.9.3');
    const { client } = await connectMcp(svc.url, { key: connectionKey, from: '127.0.9.2' });
    await client.callTool({ name: 'validate_iban', arguments: { iban: IBAN }, _meta: { [KEY_META]: callKey } });
    assert.equal((await svc.call('/v1/keys/usage', { key: callKey })).body.used, 1);
    assert.equal((await svc.call('/v1/keys/usage', { key: connectionKey })).body.used, 0);

    const unknown = `ifk_${'ef'.repeat(32)}`;
    const result = await client.callTool({
      name: 'validate_iban',
      arguments: { iban: IBAN },
      _meta: { [KEY_META]: unknown },
    });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: string }).error, 'invalid_api_key');
    assert.doesNotMatch(JSON.stringify(result), /ifk_efef/);
  });

  test("a call's _meta key that is not a string, or is empty, is invalid_api_key naming that member", async () => {
    const svc = await startService();
    const connectionKey = await svc.newKey('127.0.9.6');
    const { client } = await connectMcp(svc.url, { key: connectionKey, from: '127.0.9.6' });
    for (const [callKey, why] of [
      [42, /^params\._meta\["mod97\/api-key"\] is not a string: send the API key there as a string/],
      [null, /^params\._meta\["mod97\/api-key"\] is not a string/],
      ['', /^params\._meta\["mod97\/api-key"\] is empty: send the API key there/],
      ['   ', /^params\._meta\["mod97\/api-key"\] is empty/],
    ] as const) {
      const result = await client.callTool({
        name: 'validate_iban',
        arguments: { iban: IBAN },
        _meta: { [KEY_META]: callKey },
      });
      assert.equal(result.isError, true);
      const body = result.structuredContent as { error: string; message: string };
      assert.equal(body.error, 'invalid_api_key');
      assert.match(body.message, why, JSON.stringify(callKey));
      assert.doesNotMatch(body.message, /Authorization|MOD97_API_KEY/);
      assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), body);
    }
    // A malformed string is still judged as a key; the connection's key was not used in its place.
    const malformed = await client.callTool({
      name: 'validate_iban',
      arguments: { iban: IBAN },
      _meta: { [KEY_META]: 'ifk_123' },
    });
    assert.match((malformed.structuredContent as { message: string }).message, /^The API key is malformed\./);
    assert.equal((await svc.call('/v1/keys/usage', { key: connectionKey })).body.used, 0);
  });

  test('a key in the arguments stays key_in_body, also beside a key in _meta', async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.9.4');
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'validate_iban', arguments: { iban: key }, _meta: { [KEY_META]: key } },
    };
    const r = await svc.call('/mcp', { json: call, headers: ACCEPT, from: '127.0.9.4' });
    assert.deepEqual([r.status, r.body.error], [400, 'key_in_body']);
    // Elsewhere in _meta, or in a member name, it is refused too.
    const elsewhere = { ...call, params: { name: 'get_usage', arguments: {}, _meta: { other: key } } };
    const r2 = await svc.call('/mcp', { json: elsewhere, headers: ACCEPT, from: '127.0.9.4' });
    assert.deepEqual([r2.status, r2.body.error], [400, 'key_in_body']);
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
    // The same key in _meta alone is used, not refused.
    const alone = { ...call, params: { name: 'get_usage', arguments: {}, _meta: { [KEY_META]: key } } };
    const r3 = await svc.call('/mcp', { json: alone, headers: ACCEPT, from: '127.0.9.4' });
    assert.equal(r3.status, 200, r3.text);
    assert.equal(r3.body.result.structuredContent.key_prefix, key.slice(0, 8));
  });
});

describe('tool input schemas', () => {
  test('each is an object of properties, none with a top-level oneOf, and every property is described', async () => {
    const svc = await startService();
    const { client } = await connectMcp(svc.url, { from: '127.0.9.5' });
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 9, tools.map((t) => t.name).join());
    const undescribed: string[] = [];
    const visit = (schema: Record<string, unknown>, where: string) => {
      for (const [name, property] of Object.entries(
        (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        if (typeof property.description !== 'string' || property.description.length < 10)
          undescribed.push(`${where}.${name}`);
        visit(property, `${where}.${name}`);
        const items = property.items as Record<string, unknown> | undefined;
        for (const branch of [items, ...((items?.anyOf as Record<string, unknown>[]) ?? [])])
          if (branch) visit(branch, `${where}.${name}[]`);
      }
    };
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      for (const keyword of ['oneOf', 'anyOf', 'allOf']) assert.equal(keyword in tool.inputSchema, false, tool.name);
      visit(tool.inputSchema, tool.name);
    }
    assert.deepEqual(undescribed, []);
  });
});
