/** The service's front door: what it is, and the terms every key links to. */
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.ts';

export const siteRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    const base = services.config.publicUrl;
    app.get('/', { schema: { hide: true } }, async () => ({
      name: 'mod97',
      description: 'IBAN validation and bank lookups.',
      get_key: { method: 'POST', url: `${base}/v1/keys/generate` },
      docs: `${base}/openapi.json`,
      terms_url: `${base}/terms`,
    }));
    app.get('/terms', { schema: { hide: true } }, async (_req, reply) => {
      reply.type('text/plain; charset=utf-8');
      return TERMS;
    });
  };

const TERMS = `mod97 terms of use

1. Free keys (anonymous, e-mail and claimed) are for building and running your software.
   One person or organisation should not hold several free keys to multiply the quota.
2. When results obtained with a free key are shown to people, show "Powered by mod97"
   with a link to this service. Results kept in a backend owe nothing.
3. Keep your key secret. Send it only in the Authorization or X-API-Key header.
4. Answers state their sources and dates; they are not legal or compliance advice.
   The compliance check screens banks and countries, not names of people.
5. Paid credits never expire. Refused calls (4xx and 5xx answers) are not charged.
`;
