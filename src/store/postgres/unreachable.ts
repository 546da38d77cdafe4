/**
 * A PostgreSQL server that cannot be used at start: the error names where the service looked
 * (host, port, database, user) and why it failed, never the password, so that the operator can
 * tell a wrong address from a server that is down or a refused login.
 */
import { DomainError } from '../../errors.ts';
import { causeOf, codeOf, messageOf } from '../../thrown.ts';
import { isStorageUnavailable } from '../unavailable.ts';

/** SQLSTATE classes that mean "cannot use this server": connection (08), login (28), no such database (3D), starting up (57P03). */
const SERVER_REFUSED = /^(08|28|3D)|^57P03$/;

/** Where a URL points, in words that carry no secret. */
export function whereOf(url: URL): string {
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default)';
  const user = decodeURIComponent(url.username) || '(default)';
  return `PostgreSQL at ${url.hostname || 'localhost'}:${url.port || '5432'} (database "${database}", user "${user}")`;
}

/** Connection errors of the socket itself (before any SQLSTATE): refused, unknown host, no route, timed out. */
const NOT_CONNECTED = /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND|EAI_AGAIN)$/;

/**
 * A DomainError naming where and why, for an error met while connecting; null for any other
 * error. `named` is what names the server, for the operator to check: MOD97_DATABASE_URL, or the
 * URL a command was given.
 */
export function unreachable(url: URL, err: unknown, named = 'MOD97_DATABASE_URL'): DomainError | null {
  const lost = isStorageUnavailable(err);
  const code = codeOf(lost ? causeOf(err) : err);
  if (!lost && !(typeof code === 'string' && (SERVER_REFUSED.test(code) || NOT_CONNECTED.test(code)))) return null;
  const inner = lost ? causeOf(err) : err;
  const password = decodeURIComponent(url.password);
  let cause = messageOf(inner) || String(code ?? 'no reason given');
  if (password) cause = cause.split(password).join('***');
  const coded = typeof code === 'string' && !cause.includes(code) ? ` (${code})` : '';
  return Object.assign(
    new DomainError(
      'storage_unavailable',
      `${whereOf(url)} cannot be reached: ${cause}${coded}. Check that the server runs and that ${named} names it.`,
    ),
    { cause: inner },
  );
}
