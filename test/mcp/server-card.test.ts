/**
 * MCP discovery: the server card at /.well-known/mcp/server-card.json (the MCP community's Server
 * Card: identity, the Streamable HTTP URL, how to authenticate, and the tools) is the server the
 * official SDK client then connects to, and server.json at the repository root (for the MCP
 * Registry) says the same: name, version, description, the tools, and `mod97 mcp` by npm.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { startService } from '../support/app.ts';
import { connectMcp } from './support.ts';

const readJson = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8'));
const pkg = readJson('../../package.json');
const registryEntry = readJson('../../server.json');
/** The registry's rules for a name: reverse DNS, one slash. */
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

type Tool = { name: string; title: string; description: string };
type Card = {
  $schema: string;
  name: string;
  title: string;
  version: string;
  description: string;
  remotes: {
    type: string;
    url: string;
    headers: { name: string; value: string; isSecret: boolean }[];
    supportedProtocolVersions: string[];
  }[];
  _meta: Record<string, unknown>;
};
const toolsOf = (meta: Record<string, unknown>) => meta['io.github.mod97/tools'] as Tool[];

describe('the MCP server card', () => {
  test('names the server, its Streamable HTTP URL, how to authenticate, and the tools it lists', async () => {
    const svc = await startService();
    const r = await svc.call('/.well-known/mcp/server-card.json');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    const card = r.body as Card;
    assert.equal(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json');
    assert.match(card.name, NAME);
    assert.equal(card.version, pkg.version);
    assert.ok(card.description.length >= 1 && card.description.length <= 100, card.description);
    assert.equal(card.title, 'mod97');

    const [remote] = card.remotes;
    assert.deepEqual([remote.type, remote.url], ['streamable-http', `${svc.url}/mcp`]);
    const auth = remote.headers.find((h) => h.name === 'Authorization');
    assert.deepEqual([auth?.value, auth?.isSecret], ['Bearer {api_key}', true]);
    for (const version of remote.supportedProtocolVersions)
      assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes(version), version);

    // The URL it names is the server, and the tools it lists are that server's.
    const { client } = await connectMcp(new URL(remote.url).origin, { from: '127.0.9.9' });
    assert.equal(client.getServerVersion()?.version, card.version);
    const { tools } = await client.listTools();
    assert.deepEqual(
      toolsOf(card._meta),
      tools.map((t) => ({ name: t.name, title: t.title, description: t.description })),
    );
    assert.ok(toolsOf(card._meta).some((t) => t.name === 'create_key'));

    // The same card where the draft reserves a place for it: the MCP URL + /server-card.
    assert.deepEqual((await svc.call('/mcp/server-card')).body, card);
  });

  test('server.json (MCP Registry) agrees with the served card and describes mod97 mcp by npm', async () => {
    const svc = await startService();
    const card = (await svc.call('/.well-known/mcp/server-card.json')).body as Card;
    const entry = registryEntry;
    assert.equal(entry.$schema, 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    for (const field of ['name', 'title', 'version', 'description'] as const)
      assert.equal(entry[field], card[field], field);
    assert.match(entry.name, NAME);
    assert.ok(entry.description.length <= 100);
    assert.equal(pkg.mcpName, entry.name, 'npm ties the package to the registry name by mcpName');

    const [remote] = entry.remotes;
    assert.equal(remote.type, 'streamable-http');
    const host = new URL(card.remotes[0].url).host;
    assert.equal(remote.url.replace('{host}', host).replace('https://', 'http://'), card.remotes[0].url);
    assert.ok(remote.variables.host.description);
    assert.deepEqual(remote.headers, card.remotes[0].headers);

    const [npm] = entry.packages;
    assert.deepEqual(
      [npm.registryType, npm.identifier, npm.version, npm.transport.type],
      ['npm', pkg.name, pkg.version, 'stdio'],
    );
    assert.deepEqual(
      npm.packageArguments.map((a: { value: string }) => a.value),
      ['mcp'],
    );
    assert.deepEqual(
      npm.environmentVariables.map((v: { name: string }) => v.name),
      ['MOD97_URL', 'MOD97_API_KEY'],
    );
    assert.notEqual(npm.version, 'latest');

    // The tools as a server with no payment rail lists them (the test service has none on).
    const listed = entry._meta['io.modelcontextprotocol.registry/publisher-provided'];
    assert.deepEqual(
      toolsOf(listed),
      toolsOf(card._meta),
      'server.json lists other tools: run npm run mcp:server-json',
    );
  });
});
