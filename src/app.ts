/** Assembles Fastify: plugins, hooks and routes. No logic of its own. */
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { registerJsonBody } from './http/body.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { loggerOptions } from './http/logging.ts';
import { registerMetering } from './http/metering.ts';
import { documentBodies, documentRoute } from './http/openapi.ts';
import { addPaymentToward, claimLifetime } from './keys/paid-claim.ts';
import { x402Plugin } from './payments/x402/plugin.ts';
import { opsPlugin } from './ops/index.ts';
import { offers, packOffers } from './quota/offers.ts';
import { cardRoutes } from './routes/card.ts';
import { claimRoutes } from './routes/claim.ts';
import { creditsRoutes } from './routes/credits.ts';
import { ibanRoutes } from './routes/iban.ts';
import { keysRoutes } from './routes/keys.ts';
import { lookupRoutes } from './routes/lookups.ts';
import { siteRoutes } from './routes/site.ts';
import { usageDailyRoutes } from './routes/usage-daily.ts';
import { DailyUsage } from './quota/daily.ts';
import type { Services } from './services.ts';
import { LIMITS } from './plans.ts';

export interface AppOptions {
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(services.config.logLevel, options.logStream),
    bodyLimit: LIMITS.bodyBytes,
    // One log line per request costs throughput; access logs belong to the proxy. Errors are logged.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Socket peers are resolved by our own trusted-proxy rule (http/network.ts).
    trustProxy: false,
    // Malformed requests that never reach a route still get the error body.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
      const body = JSON.stringify(
        tooLarge
          ? { error: 'header_too_large', message: 'The request headers are too large.' }
          : { error: 'invalid_request', message: 'The request is not valid HTTP.' },
      );
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      } else {
        socket.destroy(err);
      }
    },
    // A URL the router cannot decode (FST_ERR_BAD_URL) gets the error body too, not Fastify's own.
    frameworkErrors: errorHandler,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });
  app.decorateRequest('caller', null as never);
  registerJsonBody(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  registerMetering(app, services);
  services.mailLog.to(app.log.child({ component: 'mail' }));
  app.addHook('onClose', async () => services.mailer.close());
  app.addHook('onRoute', documentRoute);
  await app.register(swagger, {
    transformObject: (doc) => ('openapiObject' in doc ? documentBodies(doc.openapiObject) : doc.swaggerObject),
    openapi: {
      openapi: '3.1.0',
      info: { title: 'mod97', version: '1', description: 'IBAN validation and bank lookups. See docs/api.md.' },
      servers: [{ url: services.config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  if (services.x402) {
    const { store, clock } = services;
    await app.register(x402Plugin, {
      rail: services.x402,
      publicUrl: services.config.publicUrl,
      keyIdOf: (req) => req.caller?.key?.id ?? null,
      optionsFor: async (req, priceUsd) => {
        const { pack } = req.routeOptions.config;
        if (pack) return packOffers(services.config.publicUrl, pack);
        // The governing basis, as metering's own 402s use: a key born in an alert is not monthly.
        const key = req.caller?.key ?? null;
        const plan = key && (await services.meter.planFor(key));
        return offers({
          baseUrl: services.config.publicUrl,
          rails: services.rails,
          now: clock(),
          x402PriceUsd: priceUsd,
          key: key && plan ? { tier: key.tier, basis: plan.basis } : undefined,
        });
      },
      onSettled: async (req, settled) => {
        const key = req.caller?.key;
        if (!key) return;
        if (req.routeOptions.config.x402Required) await claimLifetime(store, clock, key.id);
        else await addPaymentToward(store, clock, key, settled.amountMicros);
      },
    });
  }
  // Charged calls per day, for the usage chart: counted after the answer, written in batches.
  const daily = new DailyUsage(services.store, services.clock, (err) =>
    app.log.warn({ err }, 'daily usage not written'),
  );
  app.addHook('onResponse', async (req) => {
    const { key, charge } = req.caller ?? {};
    if (key && charge) daily.add(key.id, charge.cost);
  });
  app.addHook('onClose', () => daily.flush());
  await app.register(opsPlugin(services));
  await app.register(siteRoutes(services));
  await app.register(keysRoutes(services));
  await app.register(usageDailyRoutes(services, daily));
  await app.register(claimRoutes(services));
  await app.register(ibanRoutes(services));
  await app.register(lookupRoutes(services));
  await app.register(cardRoutes(services));
  await app.register(creditsRoutes(services));
  return app;
}
