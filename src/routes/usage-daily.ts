/** GET /v1/keys/usage/daily: the key's charged calls per UTC day over the current period. */
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.ts';
import { requiredKey } from '../http/caller.ts';
import { usageDailyRoute } from '../api/keys.ts';
import { served } from './serve.ts';

export const usageDailyRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    app.route({
      ...served(usageDailyRoute),
      handler: async (req) => {
        const key = requiredKey(req.caller);
        const { plan } = await services.meter.balance(key);
        const { from, to, days } = await services.daily.days(key.id, plan.basis);
        return {
          key_prefix: key.keyPrefix,
          basis: plan.basis,
          from,
          to,
          total: days.reduce((sum, d) => sum + d.used, 0),
          days,
        };
      },
    });
  };
