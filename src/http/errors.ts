/**
 * Error codes → HTTP statuses, in one table that lists every code, and the one function that
 * builds an error body `{error, message, ...details}`: route errors, the x402 steps, health,
 * Fastify's own errors and malformed HTTP that never reaches a route all go through it.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../errors.ts';
import { LIMITS } from '../plans.ts';
import { type RequestView, validationMessage } from './validation-message.ts';

export const STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_email: 400,
  disposable_email: 400,
  undeliverable_email: 400,
  key_in_url: 400,
  key_in_body: 400,
  invalid_signature: 400,
  batch_too_large: 400,
  text_too_long: 400,
  invalid_bic: 400,
  unsupported_country: 400,
  invalid_payment: 400,
  missing_api_key: 401,
  metrics_token_required: 401,
  invalid_api_key: 401,
  payment_required: 402,
  quota_exhausted: 402,
  verification_required: 403,
  verification_failed: 403,
  unused_key: 403,
  cross_site_request: 403,
  metrics_forbidden: 403,
  not_found: 404,
  bic_not_found: 404,
  clearing_not_found: 404,
  checkout_not_found: 404,
  method_not_allowed: 405,
  already_claimed: 409,
  already_claimed_elsewhere: 409,
  already_subscribed: 409,
  not_subscribed: 409,
  idempotency_in_progress: 409,
  key_already_shown: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  headers_too_large: 431,
  request_timeout: 408,
  expectation_failed: 417,
  key_creation_limit: 429,
  rate_limited: 429,
  verification_rate_limited: 429,
  claim_rate_limited: 429,
  internal_error: 500,
  // A setting refused at start-up: the server never listens, so no client sees it.
  invalid_config: 500,
  payments_unavailable: 502,
  verification_unavailable: 503,
  card_payments_unavailable: 503,
  unavailable: 503,
  storage_unavailable: 503,
};

export type ErrorBody = Record<string, unknown> & { error: ErrorCode; message: string };

/** Seconds a client should wait before retrying, sent as Retry-After with these codes. */
const RETRY_AFTER: Partial<Record<ErrorCode, string>> = { storage_unavailable: '5', idempotency_in_progress: '1' };

export interface HttpError {
  status: number;
  body: ErrorBody;
}

/** The one place an error body is made. */
export function httpError(code: ErrorCode, message: string, details: Record<string, unknown> = {}): HttpError {
  return { status: STATUS[code], body: { error: code, message, ...details } };
}

export const payloadTooLarge = () =>
  new DomainError('payload_too_large', `The request body exceeds ${LIMITS.bodyBytes / (1024 * 1024)} MiB.`);
const batchTooLarge = () => new DomainError('batch_too_large', `A batch holds at most ${LIMITS.batchMax} IBANs.`);
const textTooLong = () =>
  new DomainError(
    'text_too_long',
    `The text holds at most ${LIMITS.extractMaxChars.toLocaleString('en')} characters: send it in parts (split at line breaks, which no IBAN spans).`,
    { limit: LIMITS.extractMaxChars },
  );

const FASTIFY_CODES: Record<string, () => DomainError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new DomainError('unsupported_media_type', 'Send the body as Content-Type: application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new DomainError('invalid_request', 'Content-Length does not match the body.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new DomainError('invalid_json', 'The body is empty.'),
  FST_ERR_BAD_URL: () => new DomainError('invalid_request', 'The URL is not valid: check its percent-encoding.'),
};

/**
 * Any thrown value as the DomainError the caller is told (never internals), with its status.
 * Fastify's other 4xx (405, 406, ...) keep their own status under the generic code. `req`, when
 * given, lets a schema error name what was sent (see validation-message.ts).
 */
export function classify(err: unknown, req?: RequestView): { error: DomainError; status: number } {
  if (err instanceof DomainError) return { error: err, status: STATUS[err.code] };
  const fe = err as FastifyError;
  const as = (error: DomainError) => ({ error, status: STATUS[error.code] });
  if (fe.validation) {
    const first = fe.validation[0];
    if (first?.keyword === 'maxItems' && String(first.instancePath).startsWith('/ibans')) return as(batchTooLarge());
    if (first?.keyword === 'maxLength' && first.instancePath === '/text') return as(textTooLong());
    // The field at fault: the first segment of the failing path, or the missing property.
    const missing = first?.params?.missingProperty;
    const field =
      String(first?.instancePath ?? '').split('/')[1] || (typeof missing === 'string' ? missing : undefined);
    const message = validationMessage(fe.validation, fe.validationContext ?? 'request', req);
    return as(new DomainError('invalid_request', message, field ? { field } : {}));
  }
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return as(mapped());
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { error: new DomainError('invalid_request', 'The request could not be understood.'), status: fe.statusCode };
  }
  return as(new DomainError('internal_error', 'Something went wrong on our side; the call was not charged.'));
}

export function toHttpError(err: unknown): HttpError {
  const { error, status } = classify(err);
  return { status, body: httpError(error.code, error.message, error.details).body };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The error this request was answered with; metrics read a 402's reason from it. */
    failure: DomainError | null;
  }
}

/** Answers with `err`'s body and status, remembering it on the request. */
export function sendError(req: FastifyRequest, reply: FastifyReply, err: DomainError): FastifyReply {
  req.failure = err;
  const { status, body } = toHttpError(err);
  return reply.code(status).send(body);
}

export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const { error, status } = classify(err, req as RequestView);
  req.failure = error;
  if (status >= 500) logFailure(req, err, status);
  const retryAfter = RETRY_AFTER[error.code];
  if (retryAfter) reply.header('Retry-After', retryAfter);
  reply.code(status).send(httpError(error.code, error.message, error.details).body);
}

/**
 * A typed 5xx (a rail that is off, mail or a store unavailable) is expected and can come by the
 * thousand: one warn line with its code, no stack. Anything else is a defect: error, with the stack.
 */
export function logFailure(req: FastifyRequest, err: unknown, status: number): void {
  if (err instanceof DomainError) req.log.warn({ error: err.code, status }, err.message);
  else req.log.error({ err }, 'request failed');
}

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply): void {
  sendError(req, reply, new DomainError('not_found', `No route for ${req.method} at this path; see /openapi.json.`));
}
