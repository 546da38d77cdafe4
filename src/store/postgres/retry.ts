/**
 * Retrying statements across a lost connection. The pool opens a new connection for each new
 * query; a query caught by the loss fails, and this decides whether to send it again.
 *
 * - Idempotent statements (reads, the ping, settings, datasets, the first-served mark) are
 *   retried on any connection error: sending them twice changes nothing.
 * - Other writes (admit, a key lookup with its charge, refund, key insert, rotation, plan change,
 *   code attempts) are retried only when the error proves the statement never reached the
 *   server (refused or timed-out connect, server starting up or shutting down before the
 *   session began). A write that failed after it was sent (reset, closed, admin shutdown) has
 *   an unknown outcome: an admit may have counted. Sending it again could count twice, so the
 *   request fails (503 `storage_unavailable`, nothing served). The caller may then lose one
 *   unit; it can never gain one.
 */
import { storageUnavailable } from '../unavailable.ts';
import { codeOf, messageIn } from '../../thrown.ts';

/**
 * The statement never took effect: raised before it was written, or its transaction was
 * certainly rolled back (deadlock victim). Safe to send again, even a write.
 */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P03',
  '08001',
  '08004',
  '40P01',
]);
/** The connection died with the statement possibly in flight. */
const MAYBE_SENT = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '08000', '08003', '08006']);

/** node-postgres reports some connection failures by message only. */
const NOT_SENT_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'is not queryable',
];
const MAYBE_SENT_MESSAGES = ['Connection terminated unexpectedly', 'Connection terminated'];

type Loss = 'not_sent' | 'maybe_sent' | null;

function lossOf(err: unknown): Loss {
  const code = codeOf(err);
  const message = messageIn(err);
  if (typeof code === 'string') {
    if (NOT_SENT.has(code)) return 'not_sent';
    if (MAYBE_SENT.has(code)) return 'maybe_sent';
  }
  if (typeof message === 'string') {
    if (NOT_SENT_MESSAGES.some((m) => message.includes(m))) return 'not_sent';
    if (MAYBE_SENT_MESSAGES.some((m) => message.startsWith(m))) return 'maybe_sent';
  }
  return null;
}

const DELAYS_MS = [50, 100, 200, 400, 800, 1000, 1000, 1000];

export type StatementKind = 'idempotent' | 'once';

export function isRetryable(err: unknown, kind: StatementKind): boolean {
  const loss = lossOf(err);
  return loss === 'not_sent' || (kind === 'idempotent' && loss === 'maybe_sent');
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

/** A lost connection is the store being unavailable (503), not a bug (500). */
function unavailable(err: unknown): unknown {
  const loss = lossOf(err);
  if (loss === null || codeOf(err) === '40P01') return err;
  return storageUnavailable(err, 'be reached');
}
