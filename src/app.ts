/** Assembles Fastify: settings, the pipeline (src/http/pipeline.ts) and the routes. No logic of its own. */
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { errorHandler } from './http/errors.ts';
import { loggerOptions } from './http/logging.ts';
import { API_ROUTES } from './api/index.ts';
import { addPreflights, corsForFrameworkErrors, registerCors } from './http/cors.ts';
import { addMethodNotAllowed } from './http/method-not-allowed.ts';
import { registerPipeline } from './http/pipeline.ts';
import type { Compilers } from './http/compiled-schemas.ts';
import { EDGE_LIMITS, type EdgeLimits, edgeServerOptions, registerServerLimits } from './http/server-limits.ts';
import { API_DESCRIPTION, documentBodies, documentRoute, SECURITY_SCHEMES } from './http/openapi.ts';
import { opsPlugin } from './ops/index.ts';
import { LIMITS } from './plans.ts';
import { mcpRoutes } from './mcp/http.ts';
import { agentRoutes } from './routes/agents.ts';
import { cardRoutes } from './routes/card.ts';
import { claimRoutes } from './routes/claim.ts';
import { creditsRoutes } from './routes/credits.ts';
import { ibanRoutes } from './routes/iban.ts';
import { paymentQrRoutes } from './routes/payment-qr.ts';
import { keysRoutes } from './routes/keys.ts';
import { lookupRoutes } from './routes/lookups.ts';
import { notFound } from './routes/not-found.ts';
import { paymentRoutes } from './routes/payment.ts';
import { referenceRoutes } from './routes/references.ts';
import { siteRoutes } from './routes/site.ts';
import { usageDailyRoutes } from './routes/usage-daily.ts';
import { type Services, startDataRefresh } from './services.ts';

export interface AppOptions {
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Timeouts and size limits at the HTTP edge (tests shorten the timeouts). */
  limits?: Partial<EdgeLimits>;
  /**
   * Where the routes' validators and serialisers come from: the server passes the build's
   * (src/http/compiled-schemas.ts); by default they are compiled here, by compilers loaded only
   * then, and shared by every app of the process.
   */
  compilers?: Compilers;
}

export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const limits = { ...EDGE_LIMITS, ...options.limits };
  const compilers = options.compilers ?? (await import('./http/schema-compilers.ts')).sharedCompilers;
  const app = Fastify({
    logger: loggerOptions(services.config.logLevel, options.logStream),
    bodyLimit: LIMITS.bodyBytes,
    // One log line per request costs throughput; access logs belong to the proxy. Errors are logged.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Socket peers are resolved by our own trusted-proxy rule (http/network.ts).
    trustProxy: false,
    // Timeouts, header limits and the error body on what Node's parser refuses.
    ...edgeServerOptions(limits),
    // A URL the router cannot decode (FST_ERR_BAD_URL) gets the error body too, not Fastify's own,
    // and, naming no route, the CORS headers a data route's refusals carry (corsForFrameworkErrors).
    frameworkErrors: corsForFrameworkErrors(errorHandler),
    schemaController: { compilersFactory: compilers },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });
  // First, so that every answer of a route open to other origins carries its CORS headers, the
  // edge's own refusals (HEAD on a data route) included.
  registerCors(app);
  registerServerLimits(app, limits);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFound(API_ROUTES));
  // The reference data loads on the first call other than the liveness probe (src/data/live.ts):
  // /healthz answers without it; /readyz and every other call wait until it is loaded.
  app.addHook('onRequest', (request, _reply, done) => {
    if (services.data.loaded || request.url === '/healthz') return done();
    services.data.ready().then(() => done(), done);
  });
  await registerPipeline(app, services);
  // Not a child with a component: each line of the service's parts names its own (src/services.ts).
  services.serviceLog.to(app.log);
  app.addHook('onClose', async () => services.mailer.close());
  startDataRefresh(services, app.log.child({ component: 'data' }));
  app.addHook('onClose', async () => services.data.stop());
  app.addHook('onRoute', documentRoute);
  await app.register(swagger, {
    transformObject: (doc) => ('openapiObject' in doc ? documentBodies(doc.openapiObject) : doc.swaggerObject),
    openapi: {
      openapi: '3.1.0',
      info: { title: 'mod97', version: '1', description: API_DESCRIPTION },
      servers: [{ url: services.config.publicUrl }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(opsPlugin(services));
  await app.register(siteRoutes(services));
  await app.register(keysRoutes(services));
  await app.register(usageDailyRoutes(services));
  await app.register(claimRoutes(services));
  await app.register(ibanRoutes(services));
  await app.register(paymentQrRoutes(services));
  await app.register(lookupRoutes(services));
  await app.register(referenceRoutes(services));
  await app.register(paymentRoutes(services));
  await app.register(cardRoutes(services));
  await app.register(creditsRoutes(services));
  await app.register(agentRoutes(services));
  await app.register(mcpRoutes(services));
  addPreflights(app, API_ROUTES);
  addMethodNotAllowed(app, API_ROUTES);
  return app;
}
