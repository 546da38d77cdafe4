/** Error codes → HTTP statuses, in one place, and the error body `{error, message, ...}`. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';

export const STATUS: Record<string, number> = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_email: 400,
  disposable_email: 400,
  undeliverable_email: 400,
  key_in_url: 400,
  key_in_body: 400,
  invalid_signature: 400,
  batch_too_large: 400,
  invalid_bic: 400,
  invalid_iid: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  payment_required: 402,
  quota_exhausted: 402,
  verification_required: 403,
  verification_failed: 403,
  unused_key: 403,
  not_found: 404,
  bic_not_found: 404,
  clearing_not_found: 404,
  checkout_not_found: 404,
  method_not_allowed: 405,
  already_claimed: 409,
  already_claimed_elsewhere: 409,
  already_subscribed: 409,
  key_already_shown: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  header_too_large: 431,
  key_creation_limit: 429,
  rate_limited: 429,
  verification_rate_limited: 429,
  claim_rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  payments_unavailable: 502,
  verification_unavailable: 503,
  card_payments_unavailable: 503,
  unavailable: 503,
  storage_unavailable: 503,
};

/** Seconds a client should wait before retrying, sent as Retry-After with these codes. */
const RETRY_AFTER: Record<string, string> = { storage_unavailable: '5' };

const FASTIFY_CODES: Record<string, [string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body exceeds 1 MiB.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the body as Content-Type: application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'Content-Length does not match the body.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'The body is empty.'],
  FST_ERR_BAD_URL: ['invalid_request', 'The URL is not valid: check its percent-encoding.'],
};

export interface HttpError {
  status: number;
  body: Record<string, unknown> & { error: string; message: string };
}

export function toHttpError(err: unknown): HttpError {
  if (err instanceof DomainError) {
    return { status: STATUS[err.code] ?? 400, body: { error: err.code, message: err.message, ...err.details } };
  }
  const fe = err as FastifyError;
  if (fe.validation) {
    const first = fe.validation[0];
    if (first?.keyword === 'maxItems' && String(first.instancePath).startsWith('/ibans')) {
      return { status: 400, body: { error: 'batch_too_large', message: 'A batch holds at most 1000 IBANs.' } };
    }
    return {
      status: 400,
      body: {
        error: 'invalid_request',
        message: `${fe.validationContext ?? 'request'}${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`,
      },
    };
  }
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return { status: STATUS[mapped[0]], body: { error: mapped[0], message: mapped[1] } };
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return {
      status: fe.statusCode,
      body: { error: 'invalid_request', message: 'The request could not be understood.' },
    };
  }
  return {
    status: 500,
    body: { error: 'internal_error', message: 'Something went wrong on our side; the call was not charged.' },
  };
}

export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toHttpError(err);
  if (status >= 500) req.log.error({ err }, 'request failed');
  const retryAfter = RETRY_AFTER[body.error];
  if (retryAfter) reply.header('Retry-After', retryAfter);
  reply.code(status).send(body);
}

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply): void {
  reply
    .code(404)
    .send({ error: 'not_found', message: `No route for ${req.method} at this path; see ${'/openapi.json'}.` });
}
