/** GET /llms.txt and, with the x402 rail on, GET /.well-known/x402: the service as agents find it. */
import type { FastifyPluginAsync } from 'fastify';
import { DomainError } from '../errors.ts';
import { buildTools, refusalWays } from '../mcp/tools.ts';
import { packsOnSale, type Rails } from '../payments/offers.ts';
import { LIMITS, PACKS, PRO_PRICE_USD_PER_MONTH } from '../plans.ts';
import type { Services } from '../services.ts';
import { type CatalogueRoute, catalogue, priceText, requestsText } from '../api/catalogue.ts';

export const agentRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    app.get('/llms.txt', { schema: { hide: true } }, async (_req, reply) => {
      reply.type('text/plain; charset=utf-8');
      const tools = buildTools(services.rails).map((t) => `\`${t.name}\` (${t.definition.title})`);
      return llmsTxt(services.config.publicUrl, catalogue(), services.rails, tools);
    });

    const rail = services.x402;
    if (!rail) return;
    // Loaded only with the rail on, like the payment SDKs (src/services.ts).
    const { describePaid, discoveryExample } = await import('../http/x402-discovery.ts');
    app.get('/.well-known/x402', { schema: { hide: true } }, async () => {
      const publicUrl = services.config.publicUrl;
      const resources = [];
      for (const route of catalogue().filter((r) => r.cost.x402Usd !== null)) {
        // The offer of one call (of one IBAN for a batch); the bazaar declaration carries the
        // route's example input, where a 402 carries the request's own path parameters.
        const required = await rail.paymentRequired({
          priceUsd: route.cost.x402Usd ?? 0,
          resourceUrl: publicUrl + route.url,
        });
        if (!required)
          throw new DomainError('payments_unavailable', 'The payment facilitator cannot be reached; try again later.');
        resources.push({
          resource: publicUrl + route.url,
          type: 'http',
          method: route.method,
          description: describePaid(route),
          mimeType: 'application/json',
          accepts: required.requirements,
          extensions: discoveryExample(route),
        });
      }
      return { x402Version: 2, resources };
    });
  };

function routeLine(base: string, route: CatalogueRoute, x402: boolean): string {
  const price = priceText(route.cost);
  const costs = route.cost.requests > 0 || !price ? [`cost: ${requestsText(route.cost)}`] : [];
  if (price) costs.push(`x402 price: ${price}${x402 ? '' : ' (x402 is not turned on for this server)'}`);
  return `- ${route.method} ${base}${route.url}: ${route.summary} (${costs.join('; ')})${exampleOf(base, route)}`;
}

/** The route's example as a request: its body, or its path with the parameters filled in. */
function exampleOf(base: string, route: CatalogueRoute): string {
  const { example } = route;
  if (!example) return '';
  if (route.input === 'body') return `; example body: \`${JSON.stringify(example)}\``;
  if (route.input !== 'params') return '';
  const path = route.url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(example[name] ?? '')));
  return `; example: \`${route.method} ${base}${path}\``;
}

/**
 * Pro and the packs, each with how this server sells it or that it does not: Pro by card alone,
 * packs by card or x402: only the rails that are on (docs/api.md, "GET /llms.txt").
 */
function purchaseLines(base: string, rails: Rails): string[] {
  const checkout = `POST ${base}/v1/card/checkout`;
  const pro = rails.card
    ? `by card: ${checkout} with \`{"product": "pro"}\``
    : 'not sold on this server (card payments are off)';
  const packWays = [
    ...(rails.card ? [`by card: ${checkout} with \`{"product": "pack_<pack>"}\``] : []),
    ...(rails.x402 ? [`with x402: POST ${base}/v1/credits/buy/<pack>`] : []),
  ];
  const packs = PACKS.map((p) => `\`${p.pack}\` ${p.credits.toLocaleString('en-US')} credits for $${p.priceUsd}`);
  return [
    `- Pro: ${LIMITS.proPerMonth.toLocaleString('en-US')} requests a month for $${PRO_PRICE_USD_PER_MONTH}, ${pro}.`,
    `- Prepaid packs: ${packs.join(', ')}; ${packsOnSale(rails) ? packWays.join(', or ') : 'not sold on this server (card payments and x402 are off)'}.`,
  ];
}

/** llms.txt (llmstxt.org): a title, a summary, then sections of links with notes. */
function llmsTxt(base: string, routes: CatalogueRoute[], rails: Rails, tools: string[]): string {
  const { x402 } = rails;
  const data = routes.filter((r) => r.cost.requests > 0);
  const keys = routes.filter((r) => r.url.startsWith('/v1/keys/'));
  const packs = routes.filter((r) => r.url.startsWith('/v1/credits/'));
  return `# mod97

> IBAN validation and bank lookups as an HTTP API and an MCP server: checksums, national check digits, banks and BICs, SEPA reach, Swiss clearing numbers and bank-level compliance screening, each answer with its dated sources.

- [OpenAPI document](${base}/openapi.json): every route, field and error
- [API reference](${base}/docs): the same, for people
- MCP server (Streamable HTTP, stateless): POST ${base}/mcp, with the API key in \`Authorization: Bearer\` or \`X-API-Key\`

## MCP

- Tools: ${tools.join(', ')}. Each mirrors the REST route below with the same cost and quota; \`create_key\` gets an agent without a key a free one, which it can send at once with each call in \`params._meta["mod97/api-key"]\`.
- Server card: ${base}/.well-known/mcp/server-card.json (name, version, the MCP URL, how to authenticate, the tools).
- Over stdio: \`mod97 mcp\` (mod97's command line) with \`MOD97_URL=${base}\` and the key in \`MOD97_API_KEY\`; it forwards every call here.

## Clients

- Python 3.11+: the \`mod97\` package (in mod97's repository: \`pip install ./clients/python\`; its one dependency is httpx): \`from mod97 import Mod97\`, then \`with Mod97(base_url="${base}") as mod97: mod97.validate("DE89 3704 0044 0532 0130 00")\`, the key read from \`MOD97_API_KEY\`; \`AsyncMod97\` for asyncio; typed answers, \`Mod97Error\` with \`status\` and \`code\`, and safe retries (an \`Idempotency-Key\` on each metered POST).

## Keys and quota

- Send the key as \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\`, never in a URL or a body.
- No key: ${LIMITS.trialPerDay} validations a day per network (POST /v1/iban/validate only).
- Free key: ${LIMITS.anonymousPerMonth} requests a month; ${LIMITS.freePerMonth} a month once claimed with an e-mail address.
${purchaseLines(base, rails).join('\n')}
- A refused call (4xx or 5xx) costs nothing. Out of quota: 402 with machine-readable \`options\` (${refusalWays(rails).join(', ')}).
- x402: ${x402 ? 'on' : 'off on this server'}; with it, any data route can be paid per call in USDC (protocol v2, scheme exact) with no key${x402 ? `; paid resources are listed at ${base}/.well-known/x402` : ''}.

## Data routes

${data.map((r) => routeLine(base, r, x402)).join('\n')}

## Keys

${keys.map((r) => routeLine(base, r, x402)).join('\n')}

## Optional

${packs.map((r) => routeLine(base, r, x402)).join('\n')}
- [Terms](${base}/terms)
`;
}
