/**
 * Who may read /metrics. With MOD97_METRICS_TOKEN set, only `Authorization: Bearer <token>`
 * (401 otherwise). Without it, only callers on this machine: a socket peer on loopback, and not
 * a request forwarded by a proxy (one carrying X-Forwarded-For or Forwarded), since a proxy on
 * the same machine makes every outside caller a loopback peer (403 otherwise).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function metricsAccess(token: string | null) {
  const expected = token === null ? null : Buffer.from(`Bearer ${token}`);
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (expected) {
      const sent = Buffer.from(req.headers.authorization ?? '');
      if (sent.length === expected.length && timingSafeEqual(sent, expected)) return;
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new DomainError('metrics_token_required', 'Send Authorization: Bearer <MOD97_METRICS_TOKEN>.');
    }
    const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
    if (!forwarded && LOOPBACK.test(req.socket.remoteAddress ?? '')) return;
    throw new DomainError(
      'metrics_forbidden',
      'Metrics are served only to this machine; set MOD97_METRICS_TOKEN to read them from elsewhere.',
    );
  };
}
