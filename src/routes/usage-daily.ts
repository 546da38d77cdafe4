/** GET /v1/keys/usage/daily: the key's charged calls per UTC day over the current period. */
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../http/schemas.ts';
import type { Services } from '../services.ts';
import { requiredKey } from '../http/caller.ts';
import * as examples from './examples.ts';

const DailyReport = Type.Object({
  key_prefix: Type.String(),
  basis: Type.String(),
  from: Type.String({ description: 'First day shown (YYYY-MM-DD): the 1st of the month, or 29 days ago.' }),
  to: Type.String({ description: 'Today (UTC).' }),
  total: Type.Integer({ description: 'Sum of `days`.' }),
  days: Type.Array(Type.Object({ day: Type.String(), used: Type.Integer() }), {
    description: 'Every day from `from` to `to`, oldest first; days without calls are 0.',
  }),
});

export const usageDailyRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/v1/keys/usage/daily',
      {
        config: { access: { auth: 'key' }, errors: [], example: examples.usageDaily },
        schema: {
          operationId: 'getDailyUsage',
          response: { 200: DailyReport, ...errorResponses(400, 401) },
        },
      },
      async (req) => {
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
    );
  };
