/** Liveness and readiness, for load balancers and orchestrators. */
import type { FastifyInstance } from 'fastify';
import { httpError } from '../http/errors.ts';
import type { Services } from '../services.ts';
import { messageOf } from '../thrown.ts';

const READY_TIMEOUT_MS = 2000;

export function healthRoutes(app: FastifyInstance, services: Services): void {
  // Alive: the event loop answers. Says nothing about the database on purpose, so that a
  // database outage does not get every process restarted.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Ready: the store answers within READY_TIMEOUT_MS and, after a write it could not take
  // (disk full, database down), takes one again: a small probe write, so that readiness comes
  // back on its own once the disk has room or the database is back. Reference data is loaded
  // before this answers (src/app.ts: every call but /healthz waits for the first load); its
  // version is shown as the proof, and `data` tells how the last look for imports and the last
  // scheduled update went (a failed update leaves the loaded data in service, so it does not
  // make the process unready).
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const { store } = services;
    try {
      await withTimeout(store.ping(), READY_TIMEOUT_MS);
      if (store.writeFailing()) {
        await withTimeout(store.setSetting('readiness_probe', String(Date.now())), READY_TIMEOUT_MS).catch(() => {
          throw new Error('the last write failed and a probe write still fails');
        });
      }
      return {
        status: 'ready',
        store: services.store.engine,
        data_version: services.data.dataVersion(),
        data: services.data.status(),
      };
    } catch (err) {
      const { status, body } = httpError(
        'unavailable',
        `The ${services.store.engine} store is not reachable: ${messageOf(err)}`,
      );
      reply.code(status);
      return body;
    }
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
