/**
 * The one typed error for a store that cannot serve: disk full, read-only or failing file,
 * database down or restarting. Both engines map their own errors to it here, so the edge
 * answers 503 `storage_unavailable` (with Retry-After) instead of 500, and nothing is counted:
 * the failed write did not take effect (SQLite rolls the statement back; a PostgreSQL write
 * lost in flight is never retried, see postgres/retry.ts).
 */
import { DomainError } from '../errors.ts';
import { codeOf } from '../thrown.ts';

export function storageUnavailable(cause: unknown, what: string): DomainError {
  return Object.assign(
    new DomainError('storage_unavailable', `The database cannot ${what} right now; nothing was counted. Try again.`),
    { cause },
  );
}

export function isStorageUnavailable(err: unknown): boolean {
  return err instanceof DomainError && err.code === 'storage_unavailable';
}

/**
 * SQLite result codes (better-sqlite3's `code`, extended codes included, e.g.
 * SQLITE_IOERR_WRITE) that mean the file cannot take a write: full disk or page limit, I/O
 * error, read-only file or directory, file that cannot be opened, locked past busy_timeout.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|NOMEM|CORRUPT|NOTADB|PROTOCOL)/;

export function isSqliteUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  return typeof code === 'string' && SQLITE_UNAVAILABLE.test(code);
}
