/**
 * Every route is declared once (src/api/): this walks the declarations and checks that each
 * surface derived from them lists each route that belongs there, as a user reads it: the served
 * OpenAPI document, /docs, the home and pricing pages, the MCP tools (through the official MCP
 * client), /llms.txt, /.well-known/x402 (with the x402 rail on) and the 405 of other methods.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { catalogueRoute, costOf } from '../../src/api/catalogue.ts';
import { isDataRoute } from '../../src/api/declaration.ts';
import { API_ROUTES } from '../../src/api/index.ts';
import { connectMcp } from '../mcp/support.ts';
import { startPaidService, type PaidService } from '../payments/x402/paid-service.ts';
import { startService } from '../support/app.ts';
import { anvilBinary } from '../support/x402/chain.ts';

/** `/v1/bic/:code` as OpenAPI and the pages write it. */
const templated = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const html = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
const listedForAgents = API_ROUTES.filter((route) => catalogueRoute(route) !== null);
/** The error answer's schema as the document writes it: the Error component and this route's codes. */
type Answer = {
  content?: { 'application/json'?: { schema?: { allOf?: { properties?: { error?: { enum?: string[] } } }[] } } };
};
const metered = API_ROUTES.filter((route) => route.access.meter !== undefined);

test('the declarations are unique by method and path, and by tool name', () => {
  const routes = API_ROUTES.map((route) => `${route.method} ${route.url}`);
  assert.equal(new Set(routes).size, routes.length);
  const tools = API_ROUTES.flatMap((route) => (route.mcp ? [route.mcp.name] : []));
  assert.equal(new Set(tools).size, tools.length);
});

describe('every surface lists the declared routes', () => {
  test('the served OpenAPI document, /docs, the pages, llms.txt, the MCP tools and the 405s', async () => {
    const svc = await startService();
    const doc = (await svc.call('/openapi.json')).body;
    for (const route of API_ROUTES) {
      const operation = doc.paths[templated(route.url)]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${route.url} in /openapi.json`);
      assert.equal(operation.summary, route.guide.title);
      const responses: Record<string, Answer> = operation.responses;
      const answered = Object.values(responses).flatMap(
        (r) => r.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.enum ?? [],
      );
      for (const code of route.errors) assert.ok(answered.includes(code), `${route.url} documents ${code}`);
    }

    const docs = (await svc.call('/docs', { headers: { accept: 'text/html' } })).text;
    for (const route of API_ROUTES) assert.ok(docs.includes(html(route.guide.title)), `/docs shows ${route.url}`);

    const home = (await svc.call('/', { headers: { accept: 'text/html' } })).text;
    const pricing = (await svc.call('/pricing', { headers: { accept: 'text/html' } })).text;
    for (const route of metered) {
      assert.ok(home.includes(templated(route.url)), `the home page lists ${route.url}`);
      assert.ok(home.includes(html(route.guide.purpose ?? '-')), `the home page says what ${route.url} is for`);
      assert.ok(pricing.includes(`${route.method} ${templated(route.url)}`), `the pricing page prices ${route.url}`);
    }

    const llms = (await svc.call('/llms.txt')).text;
    for (const route of listedForAgents) {
      assert.ok(llms.includes(`- ${route.method} ${svc.url}${route.url}: `), `llms.txt lists ${route.url}`);
    }

    const mcp = await connectMcp(svc.url);
    const tools = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    const declared = API_ROUTES.flatMap((route) => (route.mcp ? [route.mcp.name] : []));
    assert.deepEqual(tools.sort(), declared.sort());

    for (const route of API_ROUTES.filter(isDataRoute)) {
      const other = route.method === 'POST' ? 'GET' : 'POST';
      const path = route.url.replace(/:(\w+)/g, 'x');
      const res = await svc.call(path, { method: other, headers: { 'content-type': 'application/json' }, raw: '{}' });
      assert.equal(res.status, 405, `${other} ${path}`);
      assert.equal(res.body.error, 'method_not_allowed');
      assert.match(String(res.headers.allow), new RegExp(route.method));
    }
  });

  const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
  test('/.well-known/x402 lists every route sold by x402, at its price', { skip }, async () => {
    const paid: PaidService = await startPaidService();
    after(() => paid.stop());
    const resources: { method: string; resource: string; accepts: { amount: string }[] }[] = (
      await paid.service.call('/.well-known/x402')
    ).body.resources;
    const listed = resources.map(
      (r) => `${r.method} ${r.resource.slice(paid.service.url.length)} ${r.accepts[0]?.amount}`,
    );
    const sold = API_ROUTES.filter((route) => catalogueRoute(route) && costOf(route).x402Usd !== null);
    assert.ok(sold.length > 0);
    // USDC has 6 decimals: $0.005 is 5000 units.
    const units = (usd: number | null) => String(Math.round((usd ?? 0) * 1e6));
    assert.deepEqual(
      listed,
      sold.map((route) => `${route.method} ${route.url} ${units(costOf(route).x402Usd)}`),
    );
  });
});
