/**
 * The operations surface: /healthz, /readyz and /metrics (Prometheus), free and outside the
 * OpenAPI document. Registered without encapsulation so its hooks see every request.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Services } from '../services.ts';
import { healthRoutes } from './health.ts';
import { metricsAccess } from './metrics-access.ts';
import { Metrics } from './metrics.ts';

export const opsPlugin = (services: Services) =>
  fp(
    async (app: FastifyInstance) => {
      const metrics = new Metrics();
      metrics.instrument(services.store);
      healthRoutes(app, services);

      const onRequest = metricsAccess(services.config.metricsToken);
      app.get('/metrics', { schema: { hide: true }, onRequest }, async (_req, reply) => {
        reply.type(metrics.registry.contentType);
        return metrics.text();
      });

      app.addHook('onResponse', (req, reply, done) => {
        // Every 402 is answered from a DomainError (src/http/errors.ts), which names its reason.
        if (reply.statusCode === 402) metrics.paymentRequired.inc({ reason: req.failure?.reason ?? 'unknown' });
        // The route template, never the raw URL: unknown paths must not grow the label set.
        const route = req.routeOptions.url ?? 'unmatched';
        metrics.answered(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
        done();
      });
    },
    { name: 'mod97-ops' },
  );
