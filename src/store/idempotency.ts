/**
 * What both engines share about Idempotency-Key entries: the conditional write that reserves a
 * key, and how an entry that was not taken answers the request that asked for it.
 */
import type { IdempotencyClaim, IdempotencyReservation } from './types.ts';

/** An entry as read back after the reservation was refused. */
export interface IdempotencyRow {
  fingerprint: string;
  token: string;
  status: number | null;
  contentType: string | null;
  body: string | null;
}

/**
 * Takes the key when no entry holds it, or when the one that does has expired or was left by a
 * request that never finished (a process that died mid-answer). Never a read followed by a write.
 */
export const RESERVE_WHEN_FREE = `ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint,
  token = excluded.token, status = NULL, content_type = NULL, body = NULL, created_at = excluded.created_at,
  expires_at = excluded.expires_at
  WHERE idempotency_keys.expires_at <= excluded.created_at
    OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= `;

/** Whoever holds the key, seen by the request that asked for `reservation`. */
export function claimOf(row: IdempotencyRow, reservation: IdempotencyReservation): IdempotencyClaim {
  // Our own reservation, met again when a statement is sent twice across a lost connection.
  if (row.token === reservation.token) return { state: 'reserved' };
  if (row.fingerprint !== reservation.fingerprint) return { state: 'mismatch' };
  if (row.status === null) return { state: 'in_progress' };
  if (row.body === null) return { state: 'not_kept' };
  return {
    state: 'done',
    answer: { status: row.status, contentType: row.contentType ?? 'application/json; charset=utf-8', body: row.body },
  };
}

/** A refused reservation reads the entry back; if it vanished meanwhile (released), it asks again. */
export const RESERVE_ATTEMPTS = 3;
