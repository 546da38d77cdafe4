/**
 * What an agent meets over MCP (docs/api.md, "Agents"): a key it can create itself, descriptions
 * that name only the payment rails that are on, per-country hints, a `oneOf` where one of two
 * arguments is sent, and the odd inputs (deep arguments, dot-segment BICs, batches refused for quota).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { connectMcp } from './support.ts';

const IBAN = 'DE89370400440532013000';
const ACCEPT = { accept: 'application/json, text/event-stream' };
const KEY = /^ifk_[0-9a-f]{64}$/;

describe('MCP for agents', () => {
  test('an agent without a key gets one with create_key, free, and the key works on REST', async () => {
    const svc = await startService();
    const { client, lastAnswer } = await connectMcp(svc.url, { from: '127.0.8.1' });
    const { tools } = await client.listTools();
    const create = tools.find((t) => t.name === 'create_key');
    assert.ok(create, 'create_key is listed');
    assert.equal(create.annotations?.readOnlyHint, false);
    assert.match(create.description ?? '', /Free/);

    const result = await client.callTool({ name: 'create_key', arguments: {} });
    assert.equal(result.isError ?? false, false);
    const key = (result.structuredContent as { api_key: string }).api_key;
    assert.match(key, KEY);
    assert.equal(lastAnswer().headers['cache-control'], 'no-store');
    const usage = await svc.call('/v1/keys/usage', { key });
    assert.deepEqual([usage.status, usage.body.used, usage.body.tier], [200, 0, 'anonymous']);
  });

  test('create_key has the REST limits: the network that made its keys of the day through REST is refused', async () => {
    const svc = await startService();
    const from = '127.0.8.2';
    for (;;) {
      const r = await svc.call('/v1/keys/generate', { method: 'POST', from });
      if (r.status !== 201) break;
    }
    const { client } = await connectMcp(svc.url, { from });
    const result = await client.callTool({ name: 'create_key', arguments: {} });
    const rest = await svc.call('/v1/keys/generate', { method: 'POST', from });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: string }).error, rest.body.error);
  });

  test('with no payment rail on, no description offers x402, credits or cards, and free tools name no payment', async () => {
    const svc = await startService();
    const { client } = await connectMcp(svc.url);
    const { tools } = await client.listTools();
    for (const tool of tools) assert.doesNotMatch(tool.description ?? '', /x402|credits|card/i, tool.name);
    const usage = tools.find((t) => t.name === 'get_usage')!;
    assert.doesNotMatch(usage.description ?? '', /402|options/);
  });

  test('with only the card rail on, descriptions offer credits by card and no x402', async () => {
    const svc = await startService({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_mcp',
        STRIPE_WEBHOOK_SECRET: 'whsec_test_mcp',
        STRIPE_API_BASE: 'http://127.0.0.1:9',
      },
    });
    const { client } = await connectMcp(svc.url);
    const validate = (await client.listTools()).tools.find((t) => t.name === 'validate_iban')!;
    assert.match(validate.description ?? '', /buy credits by card/);
    assert.doesNotMatch(validate.description ?? '', /x402/);
  });

  test('iban_from_account says per country where each part goes; check_compliance takes iban xor bic', async () => {
    const svc = await startService();
    const { client } = await connectMcp(svc.url);
    const { tools } = await client.listTools();
    const fromAccount = tools.find((t) => t.name === 'iban_from_account')!.description ?? '';
    assert.match(fromAccount, /GB, IE: [^.]*branch_code = sort code \(6 digits\)/);
    assert.match(fromAccount, /FR, MC: [^.]*branch_code = code guichet/);
    assert.match(fromAccount, /IT, SM: bank_code = ABI \(5 digits\); branch_code = CAB \(5 digits\)/);
    // Exactly one of iban or bic: said in words, not by a top-level oneOf that clients refuse.
    const compliance = tools.find((t) => t.name === 'check_compliance')!;
    assert.deepEqual(Object.keys(compliance.inputSchema).sort(), ['properties', 'type']);
    assert.deepEqual(Object.keys(compliance.inputSchema.properties ?? {}).sort(), ['bic', 'iban']);
    const properties = compliance.inputSchema.properties as Record<string, { description: string }>;
    for (const arg of ['iban', 'bic']) assert.match(properties[arg].description, /either `iban` or `bic`, not both/);
    assert.match(compliance.description ?? '', /exactly one of iban or bic/);
    // The GB hint, followed, builds the IBAN.
    const key = await svc.newKey('127.0.8.3');
    const { client: keyed } = await connectMcp(svc.url, { key, from: '127.0.8.3' });
    const built = await keyed.callTool({
      name: 'iban_from_account',
      arguments: { country: 'GB', bank_code: 'NWBK', branch_code: '60-16-13', account: '31926819' },
    });
    assert.equal((built.structuredContent as { iban: string }).iban, 'GB29NWBK60161331926819');
  });

  test('arguments nested thousands deep are a clear 400, never a -32603 stack overflow', async () => {
    const svc = await startService();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const args = `{"iban":"${IBAN}","x":${deep}}`;
    const message = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"validate_iban","arguments":${args}}}`;
    const r = await svc.call('/mcp', {
      raw: message,
      headers: { ...ACCEPT, 'content-type': 'application/json' },
      from: '127.0.8.4',
    });
    // The same refusal as every route's (http/body.ts): found by a byte scan, never parsed.
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_json']);
    assert.match(r.body.message, /deeper than 64 levels/);
    assert.doesNotMatch(r.text, /call stack/);
  });

  test('a BIC of dots or slashes is invalid_bic as on REST, never another route', async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.8.5');
    const { client } = await connectMcp(svc.url, { key, from: '127.0.8.5' });
    for (const bic of ['..', '.', '../keys/usage', 'DEUT/DEFF', '%2e%2e']) {
      const result = await client.callTool({ name: 'lookup_bic', arguments: { bic } });
      assert.equal(result.isError, true, bic);
      const refusal = result.structuredContent as { error: string; reason: string };
      // Each holds a character no BIC has (docs/api.md, "MCP server"): reason characters, not length.
      assert.deepEqual([refusal.error, refusal.reason], ['invalid_bic', 'characters'], bic);
    }
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0, 'nothing was charged');
  });

  test("a path argument over 100 characters is the route's own refusal, as on REST, not charged", async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.8.7');
    const { client } = await connectMcp(svc.url, { key, from: '127.0.8.7' });
    // 20,000 is past what a REST request line can hold (16 KiB), not what a tool call can.
    for (const length of [150, 20_000]) {
      const result = await client.callTool({ name: 'lookup_bic', arguments: { bic: 'A'.repeat(length) } });
      assert.equal(result.isError, true);
      const refusal = result.structuredContent as { error: string; reason: string; message: string };
      assert.deepEqual(
        [refusal.error, refusal.reason, refusal.message],
        ['invalid_bic', 'length', `a BIC has 8 or 11 characters, this one has ${length}`],
      );
    }
    const clearing = await client.callTool({ name: 'lookup_swiss_clearing', arguments: { iid: '1'.repeat(150) } });
    const refusal = clearing.structuredContent as { error: string; field: string };
    assert.deepEqual([clearing.isError, refusal.error, refusal.field], [true, 'invalid_request', 'iid']);
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0, 'nothing was charged');
  });

  test('a tool name with a typing slip is refused naming the tool meant; one far from any names none', async () => {
    const svc = await startService();
    const { client } = await connectMcp(svc.url, { from: '127.0.8.6' });
    const refusal = async (name: string) => {
      const error = await client.callTool({ name, arguments: {} }).then(
        () => assert.fail(`${name} was called`),
        (e: Error) => e,
      );
      return error.message;
    };
    const meant =
      'Unknown tool: validate_ibn. Did you mean validate_iban or validate_ibans? tools/list names every tool.';
    // The client puts the SDK's "MCP error <code>: " before the message once: the wire carries none.
    assert.equal(await refusal('validate_ibn'), `MCP error -32602: ${meant}`, 'the nearest first');
    const raw = await svc.call('/mcp', {
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'validate_ibn', arguments: {} } },
      headers: { accept: 'application/json, text/event-stream' },
      from: '127.0.8.6',
    });
    assert.deepEqual(raw.body.error, { code: -32602, message: meant });
    assert.match(await refusal('validateIbans'), /Did you mean validate_ibans or validate_iban\?/);
    assert.doesNotMatch(await refusal('get_weather'), /Did you mean/);
  });

  test('X-Quota-Exhausted is on the answer when any call of a JSON-RPC batch was refused for quota', async () => {
    const svc = await startService();
    const key = await svc.makePro(await svc.newKey('127.0.8.6'), 3);
    const call = (id: number, name: string, args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    // A batch of five IBANs does not fit the three left (refused for quota); the single call after it does.
    const r = await svc.call('/mcp', {
      key,
      json: [call(1, 'validate_ibans', { ibans: Array(5).fill(IBAN) }), call(2, 'validate_iban', { iban: IBAN })],
      headers: ACCEPT,
    });
    assert.equal(r.status, 200, r.text);
    const answers = r.body as { id: number; result: { isError?: boolean; structuredContent: { error?: string } } }[];
    assert.equal(answers.find((m) => m.id === 1)?.result.structuredContent.error, 'quota_exhausted');
    assert.equal(answers.find((m) => m.id === 2)?.result.isError ?? false, false);
    assert.equal(r.headers['x-quota-exhausted'], 'true');
  });

  test('llms.txt names the MCP tools, mod97 mcp, and an example request per data route', async () => {
    const svc = await startService();
    const text = (await svc.call('/llms.txt')).text as string;
    for (const tool of ['validate_iban', 'create_key', 'lookup_bic', 'check_compliance', 'iban_from_account'])
      assert.match(text, new RegExp(`\`${tool}\``), tool);
    assert.match(text, /`mod97 mcp`.*MOD97_URL=/);
    assert.match(text, /POST \S+\/v1\/iban\/validate: .*example body: `\{"iban":"DE89370400440532013000"\}`/);
    assert.match(text, /GET \S+\/v1\/bic\/:code: .*example: `GET \S+\/v1\/bic\/DEUTDEFF`/);
  });
});
