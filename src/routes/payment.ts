/** POST /v1/payment/check. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paymentCheckRoute } from '../api/payment-check.ts';
import type { Services } from '../services.ts';
import { checkPayment } from '../transfer/check.ts';
import { attributionFor } from './presentation.ts';
import { served } from './serve.ts';

export const paymentRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.route({
      ...served(paymentCheckRoute),
      handler: async (req) => ({
        ...checkPayment(req.body, { describe: services.describe }),
        ...attributionFor(req.caller, services),
      }),
    });
  };
