/**
 * The operations surface: /healthz, /readyz and /metrics (Prometheus), free and outside the
 * OpenAPI document. Registered without encapsulation so its hooks see every request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

      const onRequest = metricsAccess(services.config.env.MOD97_METRICS_TOKEN);
      app.get('/metrics', { schema: { hide: true }, onRequest }, async (_req, reply) => {
        reply.type(metrics.registry.contentType);
        return metrics.text();
      });

      app.addHook('onSend', async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        if (reply.statusCode === 402 && typeof payload === 'string')
          metrics.paymentRequired.inc({ reason: reasonOf402(payload) });
        return payload;
      });

      app.addHook('onResponse', async (req, reply) => {
        // The route template, never the raw URL: unknown paths must not grow the label set.
        const route = req.routeOptions.url ?? 'unmatched';
        metrics.requests.inc({ method: req.method, route, status: reply.statusCode });
        metrics.requestSeconds.observe({ route }, reply.elapsedTime / 1000);
      });
    },
    { name: 'mod97-ops' },
  );

function reasonOf402(payload: string): string {
  const reason = /"reason":"(\w+)"/.exec(payload) ?? /"error":"(\w+)"/.exec(payload);
  return reason?.[1] ?? 'unknown';
}
