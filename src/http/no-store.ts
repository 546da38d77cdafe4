/**
 * An answer that carries a key secret (generate, rotate, a pack's 201, the card success page)
 * must not be kept by a browser or a proxy cache: `Cache-Control: no-store`. Judged on the
 * answer itself, so that no route can forget it; a secret appears only in these answers (one
 * in a request is refused), and the test costs one substring scan of the answer.
 */
import type { FastifyReply } from 'fastify';
import { KEY_ANYWHERE } from '../keys/secret.ts';

export function noStoreIfSecret(reply: FastifyReply, payload: unknown): void {
  if (typeof payload === 'string' && payload.includes('ifk_') && KEY_ANYWHERE.test(payload)) {
    reply.header('cache-control', 'no-store');
  }
}
