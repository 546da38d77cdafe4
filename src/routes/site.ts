/**
 * The service's front door and the pages for people: `/` (JSON to programs, HTML to browsers),
 * /pricing, /keys/new, /claim, /usage, /qr, /docs and /terms, plus the pages' own static assets.
 * Every page is rendered on the server; the small script talks to the API on the same origin.
 */
import type { FastifyPluginAsync } from 'fastify';
import { prefersHtml } from '../http/accept.ts';
import { LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { apiReference, openApiDoc } from '../web/api-reference.ts';
import { FREE, keysNew, pricing, ROUTES, TERMS } from '../web/content.ts';
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
    page('/keys/new', 'keys-new', 'Get a free key', () => keysNew(rails()));
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
