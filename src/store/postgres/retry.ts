/**
 * Retrying statements across a lost connection. postgres.js reconnects by itself for new
 * queries; a query caught by the loss fails, and this decides whether to send it again.
 *
 * - Idempotent statements (reads, the ping, settings, datasets, the first-served mark) are
 *   retried on any connection error: sending them twice changes nothing.
 * - Other writes (admit, refund, key insert, rotation, plan change, code attempts) are
 *   retried only when the error proves the statement never reached the server (refused or
 *   timed-out connect, server still starting up). A write that failed after it was sent
 *   (reset, closed, admin shutdown) has an unknown outcome: an admit may have counted.
 *   Sending it again could count twice, so the request fails (503 `unavailable`, nothing
 *   served). The caller may then lose one unit; it can never gain one.
 */

/**
 * The statement never took effect: raised before it was written, or its transaction was
 * certainly rolled back (deadlock victim). Safe to send again, even a write.
 */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P03',
  '08001',
  '08004',
  '40P01',
]);
/** The connection died with the statement possibly in flight. */
const MAYBE_SENT = new Set([
  'ECONNRESET',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  '57P01',
  '57P02',
  '08000',
  '08003',
  '08006',
]);

const DELAYS_MS = [50, 100, 200, 400, 800, 1000, 1000, 1000];

import { DomainError } from '../../errors.ts';

export type StatementKind = 'idempotent' | 'once';

export function isRetryable(err: unknown, kind: StatementKind): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return NOT_SENT.has(code) || (kind === 'idempotent' && MAYBE_SENT.has(code));
}

export async function withRetry<T>(kind: StatementKind, run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= DELAYS_MS.length || !isRetryable(err, kind)) throw unavailable(err);
      await new Promise((resolve) => setTimeout(resolve, DELAYS_MS[attempt]));
    }
  }
}

/** A lost connection is the service being unavailable (503), not a bug (500). */
function unavailable(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(NOT_SENT.has(code) || MAYBE_SENT.has(code)) || code === '40P01') return err;
  return Object.assign(new DomainError('unavailable', `The database could not be reached (${code}); try again.`), {
    cause: err,
  });
}
