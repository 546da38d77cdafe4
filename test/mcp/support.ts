/**
 * The official MCP SDK client over Streamable HTTP, sending from any loopback address (so that
 * each test acts as its own network) and keeping every HTTP answer it got, headers included.
 */
import { pgAdmin } from '../support/pg.ts';
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, type Reply } from '../support/http.ts';

export interface McpSession {
  client: Client;
  /** The HTTP answers to the client's requests, in order. */
  answers: Reply[];
  /** The last answer to a POST that called a tool. */
  lastAnswer(): Reply;
}

/** fetch's shape over test/support/http.ts, which can bind a source address. */
export function fetchFrom(from: string, answers: Reply[] = []) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const reply = await call(new URL(request.url).origin, new URL(request.url).pathname, {
      method: request.method,
      raw: body,
      headers: Object.fromEntries(request.headers),
      from,
    });
    answers.push(reply);
    const headers = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) if (typeof value === 'string') headers.set(name, value);
    // 202 and 405 carry no body for fetch's purposes.
    const text = reply.status === 202 || reply.status === 204 ? null : reply.text;
    return new Response(text, { status: reply.status, headers });
  };
}

export async function connectMcp(baseUrl: string, opts: { key?: string; from?: string } = {}): Promise<McpSession> {
  const answers: Reply[] = [];
  const client = new Client({ name: 'mod97-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    fetch: fetchFrom(opts.from ?? '127.0.0.1', answers),
    requestInit: opts.key ? { headers: { authorization: `Bearer ${opts.key}` } } : undefined,
  });
  await client.connect(transport);
  after(() => client.close());
  return { client, answers, lastAnswer: () => answers[answers.length - 1] };
}

/** A database URL per engine: SQLite in memory, and PostgreSQL in a throwaway schema when configured. */
export function engines(): { name: string; databaseUrl?: string; skip: string | false }[] {
  const pgUrl = process.env.MOD97_TEST_POSTGRES_URL;
  const list: { name: string; databaseUrl?: string; skip: string | false }[] = [
    { name: 'sqlite', databaseUrl: 'sqlite::memory:', skip: false },
  ];
  if (!pgUrl) return [...list, { name: 'postgres', skip: 'MOD97_TEST_POSTGRES_URL is not set' }];
  const schema = `mod97_mcp_${randomBytes(6).toString('hex')}`;
  after(async () => {
    const admin = await pgAdmin(pgUrl);
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  return [
    ...list,
    { name: 'postgres', databaseUrl: `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`, skip: false },
  ];
}
