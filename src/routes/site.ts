/**
 * The service's front door and the pages for people: `/` (JSON to programs, HTML to browsers),
 * /pricing, /keys/new, /claim, /usage, /qr, /docs and /terms, plus the pages' own static assets.
 * Every page is rendered on the server; the small script talks to the API on the same origin.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { apiReference, openApiDoc } from '../web/api-reference.ts';
import { FREE, pricing, ROUTES, TERMS } from '../web/content.ts';
import { QR_FORM_FIELDS } from '../web/qr-form.ts';
import { loadAssets, PAGE_HEADERS, sendPage } from '../web/render.ts';
import { generateRoute } from '../api/keys.ts';

const hidden = { schema: { hide: true } };

export const siteRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    const base = () => services.config.publicUrl;
    const rails = () => ({ card: Boolean(services.card), x402: Boolean(services.x402) });
    const page = (path: string, template: string, title: string, data: () => Record<string, unknown> = () => ({})) =>
      app.get(path, hidden, async (_req, reply) =>
        sendPage(reply, template, {
          path,
          page: template,
          title,
          free: FREE,
          codeMinutes: LIMITS.codeMinutes,
          ...data(),
        }),
      );

    app.get('/', hidden, async (req, reply) => {
      reply.header('vary', 'Accept');
      if (prefersHtml(req)) {
        return sendPage(reply, 'index', {
          path: '/',
          page: 'index',
          title: 'IBAN validation and bank lookups',
          free: FREE,
          routes: ROUTES,
          base: base(),
        });
      }
      return {
        name: 'mod97',
        description: 'IBAN validation and bank lookups.',
        get_key: { method: generateRoute.method, url: `${base()}${generateRoute.url}` },
        docs: `${base()}/openapi.json`,
        terms_url: `${base()}/terms`,
      };
    });
    page('/pricing', 'pricing', 'Pricing', () => pricing(rails()));
    page('/keys/new', 'keys-new', 'Get a free key');
    page('/claim', 'claim', 'Claim your key');
    page('/usage', 'usage', 'Usage');
    page('/qr', 'qr', 'Payment QR codes', () => ({ fields: QR_FORM_FIELDS }));
    page('/terms', 'terms', 'Terms of use', () => ({ terms: TERMS }));
    page('/docs', 'docs', 'API reference', () => apiReference(openApiDoc(app.swagger())));

    const assets = loadAssets();
    app.get<{ Params: { name: string } }>('/assets/:name', hidden, async (req, reply) => {
      const asset = assets.get(req.params.name);
      if (!asset) return reply.callNotFound();
      return reply
        .headers(PAGE_HEADERS)
        .header('cache-control', 'public, max-age=300')
        .type(asset.type)
        .send(asset.body);
    });
  };

/** HTML only when Accept ranks text/html strictly above application/json (q-values, wildcards). */
function prefersHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  if (!accept) return false;
  const ranges = accept.split(',').map((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { range: range.trim(), q: q ? Number(q.slice(2)) || 0 : 1 };
  });
  const quality = (type: string) => {
    const [major] = type.split('/');
    const exact = ranges.find((r) => r.range === type) ?? ranges.find((r) => r.range === `${major}/*`);
    return (exact ?? ranges.find((r) => r.range === '*/*'))?.q ?? 0;
  };
  return quality('text/html') > quality('application/json');
}
