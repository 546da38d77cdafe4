/**
 * `mod97 mcp` as an agent runs it: a child process on stdio, driven by the official SDK's
 * StdioClientTransport, forwarding to a real service whose counters it moves.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startService } from '../support/app.ts';
import { UNREACHABLE_URL } from '../support/loopback.ts';

const BIN = fileURLToPath(new URL('../../bin/mod97.js', import.meta.url));
const { version: VERSION } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const IBAN = 'DE89370400440532013000';

async function bridge(env: Record<string, string>) {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  await client.connect(transport);
  after(() => client.close());
  return { client, stderr: () => stderr };
}

describe('mod97 mcp (stdio bridge)', () => {
  test('lists the service tools and calls them on MOD97_API_KEY, moving the key counters', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const { client } = await bridge({ MOD97_URL: svc.url, MOD97_API_KEY: key });
    assert.deepEqual([client.getServerVersion()?.name, client.getServerVersion()?.version], ['mod97', VERSION]);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'validate_iban' && t.annotations?.readOnlyHint === true));

    const result = await client.callTool({ name: 'validate_iban', arguments: { iban: IBAN } });
    const rest = await svc.call('/v1/iban/validate', { json: { iban: IBAN }, key });
    assert.equal(result.isError ?? false, false);
    assert.deepEqual(result.structuredContent, rest.body);
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 2);

    const refused = await client.callTool({ name: 'lookup_bic', arguments: { bic: 'NOPE' } });
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { error: string }).error, 'invalid_bic');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 2, 'a refusal is refunded');

    // The service's JSON-RPC error is passed on as the service words it: the client adds its one prefix.
    const unknown = await client.callTool({ name: 'validate_ibn', arguments: {} }).then(
      () => assert.fail('validate_ibn was called'),
      (e: Error) => e.message,
    );
    assert.equal(
      unknown,
      'MCP error -32602: Unknown tool: validate_ibn. Did you mean validate_iban or validate_ibans? tools/list names every tool.',
    );
  });

  test('without MOD97_API_KEY, validate_iban runs on the no-key trial', async () => {
    const svc = await startService();
    const { client } = await bridge({ MOD97_URL: svc.url });
    const result = await client.callTool({ name: 'validate_iban', arguments: { iban: IBAN } });
    assert.equal((result.structuredContent as { trial: { calls_left_today: number } }).trial.calls_left_today, 24);
  });

  test('starts with a key the service does not know; each call answers the 401 as a tool error, never the key', async () => {
    const svc = await startService();
    const unknown = `ifk_${'cd'.repeat(32)}`;
    const { client, stderr } = await bridge({ MOD97_URL: svc.url, MOD97_API_KEY: unknown });
    // The package's own name and version, as when the service takes the key.
    assert.deepEqual([client.getServerVersion()?.name, client.getServerVersion()?.version], ['mod97', VERSION]);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'validate_iban'));
    const result = await client.callTool({ name: 'validate_iban', arguments: { iban: IBAN } });
    assert.equal(result.isError, true);
    const body = result.structuredContent as { error: string; message: string };
    assert.equal(body.error, 'invalid_api_key');
    assert.match(body.message, /MOD97_API_KEY/);
    assert.match(stderr(), /invalid_api_key.*Starting anyway/);
    assert.doesNotMatch(stderr() + JSON.stringify(result), /ifk_cd/);
    // Nothing was served on the trial in the key's place.
    assert.equal((await svc.call('/v1/keys/usage')).body.used, 0);
    // A call that carries its own key is served on it, as the service's /mcp serves it: an agent
    // whose MOD97_API_KEY went stale can go on with a key it was just given.
    const key = await svc.newKey();
    const own = await client.callTool({
      name: 'validate_iban',
      arguments: { iban: IBAN },
      _meta: { 'mod97/api-key': key },
    });
    assert.equal(own.isError ?? false, false, JSON.stringify(own.structuredContent));
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1);
    // A refusal of the call itself is not blamed on MOD97_API_KEY.
    const inArguments = await client.callTool({
      name: 'validate_iban',
      arguments: { iban: key },
      _meta: { 'mod97/api-key': key },
    });
    assert.equal((inArguments.structuredContent as { error: string }).error, 'key_in_body');
    assert.doesNotMatch((inArguments.structuredContent as { message: string }).message, /MOD97_API_KEY/);
  });

  test('a key rotated while it runs: the next call answers the 401 as a tool error, and it keeps running', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const { client } = await bridge({ MOD97_URL: svc.url, MOD97_API_KEY: key });
    const first = await client.callTool({ name: 'validate_iban', arguments: { iban: IBAN } });
    assert.equal(first.isError ?? false, false);
    const rotated = await svc.call('/v1/keys/rotate', { method: 'POST', key });
    assert.equal(rotated.status, 200);
    const second = await client.callTool({ name: 'validate_iban', arguments: { iban: IBAN } });
    assert.equal(second.isError, true);
    assert.equal((second.structuredContent as { error: string }).error, 'invalid_api_key');
    const third = await client.callTool({ name: 'get_usage', arguments: {} });
    assert.equal((third.structuredContent as { error: string }).error, 'invalid_api_key');
  });

  test('starts while the service is down: lists the tools and answers each call with an error naming MOD97_URL', async () => {
    const url = UNREACHABLE_URL;
    const { client, stderr } = await bridge({ MOD97_URL: url });
    assert.deepEqual([client.getServerVersion()?.name, client.getServerVersion()?.version], ['mod97', VERSION]);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.ok(names.includes('validate_iban') && names.includes('create_key'), names.join());
    assert.ok(tools.every((t) => t.inputSchema && t.outputSchema));
    const result = await client.callTool({ name: 'validate_iban', arguments: { iban: IBAN } });
    assert.equal(result.isError, true);
    const text = (result.content as { text: string }[])[0].text;
    assert.match(text, new RegExp(`${url}.*MOD97_URL`));
    assert.equal((result.structuredContent as { error: string }).error, 'service_unreachable');
    assert.match(stderr(), /MOD97_URL/);
  });

  test('the tools listed without the service are the ones the service lists', async () => {
    const svc = await startService();
    const { offlineToolList } = await import('../../src/mcp/tool-list.ts');
    const { client } = await bridge({ MOD97_URL: svc.url });
    const served = (await client.listTools()).tools;
    assert.deepEqual(
      (await offlineToolList()).map((t) => [t.name, t.inputSchema, t.outputSchema]),
      served.map((t) => [t.name, t.inputSchema, t.outputSchema]),
    );
  });
});
