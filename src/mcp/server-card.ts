/**
 * The MCP server card (`GET /.well-known/mcp/server-card.json`): what an MCP client or registry
 * reads before it connects. Its shape is the Server Card of the MCP community's proposal
 * (SEP-2127, which continues SEP-1649): identity, the Streamable HTTP URL, the headers that
 * authenticate. The proposal lists no tools in a card, so the tools (name, title, description)
 * travel under `_meta`, namespaced by the server's name. All of it derives from the route
 * declarations (the tools) and the config (the URL); `server.json` at the repository root, for
 * the MCP Registry, says the same (checked by test/mcp/server-card.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_META } from '../http/body.ts';
import type { Rails } from '../payments/offers.ts';
import { ROOT } from '../root.ts';
import { buildTools } from './tools.ts';

export const { version: MCP_VERSION }: { version: string } = JSON.parse(
  readFileSync(join(ROOT, 'package.json'), 'utf8'),
);

/** The server's name in reverse-DNS form, as registries key it; `server.json` carries the same. */
export const MCP_NAME = 'io.github.mod97/mod97';
export const MCP_TITLE = 'mod97';
/** The `serverInfo` of `initialize`, from /mcp and from `mod97 mcp` alike. */
export const MCP_SERVER_INFO = { name: 'mod97', title: MCP_TITLE, version: MCP_VERSION };
/** At most 100 characters: the limit of the card and of the registry. */
export const MCP_DESCRIPTION =
  'Validate IBANs and look up banks, BICs, SEPA reach and sanctions, each answer with its dated sources';
/** The revisions this server negotiates (the SDK's, newest first). */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'];
const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';
/** The `_meta` member that lists the tools. */
export const TOOLS_META = `${MCP_NAME.split('/')[0]}/tools`;
const AUTH_META = `${MCP_NAME.split('/')[0]}/authentication`;

export function serverCard(publicUrl: string, rails: Rails) {
  const tools = buildTools(rails).map(({ definition: d }) => ({
    name: d.name,
    title: d.title,
    description: d.description,
  }));
  return {
    $schema: SCHEMA,
    name: MCP_NAME,
    title: MCP_TITLE,
    version: MCP_VERSION,
    description: MCP_DESCRIPTION,
    websiteUrl: `${publicUrl}/`,
    remotes: [
      {
        type: 'streamable-http',
        url: `${publicUrl}/mcp`,
        headers: [
          {
            name: 'Authorization',
            description:
              'A mod97 API key as a bearer token. Optional: without one, validate_iban runs on a small daily trial and the create_key tool gives a free key.',
            isRequired: false,
            isSecret: true,
            value: 'Bearer {api_key}',
            variables: {
              api_key: {
                description: 'The API key: ifk_ and 64 hexadecimal digits.',
                isRequired: false,
                isSecret: true,
              },
            },
          },
        ],
        supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
      },
    ],
    _meta: {
      [AUTH_META]: {
        headers: ['Authorization: Bearer <key>', 'X-API-Key: <key>'],
        per_call: `params._meta["${KEY_META}"] of a tools/call`,
        get_a_key: { tool: 'create_key', rest: `POST ${publicUrl}/v1/keys/generate` },
      },
      [TOOLS_META]: tools,
    },
  };
}
