/** What both engines share about Idempotency-Key entries: how an entry answers another request with its key. */
import type { IdempotencyClaim, IdempotencyReservation } from './types.ts';

/** One text for an entry's scope and key, for maps of entries held or read. */
export const entryKey = (scope: string, key: string) => `${scope}\n${key}`;

/** An entry as read back: the request that holds the key, or the answer it was given. */
export interface IdempotencyRow {
  fingerprint: string;
  token: string;
  status: number | null;
  contentType: string | null;
  body: string | null;
  /** PostgreSQL: 1 when this entry's reservation took over the same request's unanswered one. */
  resumed?: number;
}

/** Whoever holds the key, seen by the request that asked for `reservation`. */
export function claimOf(row: IdempotencyRow, reservation: IdempotencyReservation): IdempotencyClaim {
  // Our own reservation, met again when a statement is sent twice across a lost connection:
  // as it was made, resumed or not.
  if (row.token === reservation.token) return { state: row.resumed === 1 ? 'resumed' : 'reserved' };
  if (row.fingerprint !== reservation.fingerprint) return { state: 'mismatch' };
  if (row.status === null) return { state: 'in_progress' };
  if (row.body === null) return { state: 'not_kept' };
  return {
    state: 'done',
    answer: { status: row.status, contentType: row.contentType ?? 'application/json; charset=utf-8', body: row.body },
  };
}
