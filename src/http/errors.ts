/**
 * Error codes → HTTP statuses, in one table that lists every code, and the one function that
 * builds an error body `{error, message, ...details}`: route errors, the x402 steps, health,
 * Fastify's own errors and malformed HTTP that never reaches a route all go through it.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode, type ErrorDetails } from '../errors.ts';
import { LIMITS } from '../plans.ts';
import { type RequestView, segments, validationMessage } from './validation-message.ts';

export const STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_email: 400,
  disposable_email: 400,
  undeliverable_email: 400,
  key_in_url: 400,
  key_in_body: 400,
  key_in_idempotency_key: 400,
  invalid_signature: 400,
  batch_too_large: 400,
  text_too_long: 400,
  invalid_bic: 400,
  unsupported_country: 400,
  reference_empty: 400,
  reference_characters: 400,
  reference_length: 400,
  reference_not_creatable: 400,
  invalid_payment: 400,
  image_too_large: 400,
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
  checkout_already_open: 409,
  not_subscribed: 409,
  idempotency_in_progress: 409,
  idempotency_answer_not_kept: 409,
  key_already_shown: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  payment_data_invalid: 422,
  image_unreadable: 422,
  qr_not_found: 422,
  qr_standard_unknown: 422,
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

/**
 * What each code means, for people: the /docs page lists every code with its status and this
 * sentence, and each route links its codes here. Partial so that a code added elsewhere compiles;
 * test/web/docs-page.test.ts asks for a sentence for every code.
 */
export const MEANING: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'a body that is present but not JSON',
  invalid_request:
    'a body of the wrong shape (`field` names the member at fault, as a path: `creditor.iban`), a URL that cannot be decoded, or a request the HTTP parser refuses',
  invalid_email: '`email` is not an address',
  disposable_email: 'the address is at a disposable-mail domain',
  undeliverable_email: 'on claim: the domain has no MX, a null MX, or does not exist',
  key_in_url: 'a key-shaped value in the URL; it is not used',
  key_in_body: 'a key-shaped value in the JSON body; it is not used',
  key_in_idempotency_key: 'an API key sent as the `Idempotency-Key`; it is not used, nor kept',
  invalid_signature: 'a Stripe webhook delivery whose signature does not verify',
  batch_too_large: 'a batch of more than 1000 IBANs',
  text_too_long: 'a text for `POST /v1/iban/extract` over 20,000 characters; not charged',
  invalid_bic: 'a BIC that is not 8 or 11 letters and digits in its format',
  unsupported_country: 'from-account for a country whose IBAN it cannot build',
  reference_empty: 'on `POST /v1/reference/create`: `from` is empty; not charged',
  reference_characters: 'on `POST /v1/reference/create`: `from` holds characters the type cannot take; not charged',
  reference_length: 'on `POST /v1/reference/create`: `from` is too short or too long for the type; not charged',
  reference_not_creatable:
    'on `POST /v1/reference/create`: a Norwegian KID by mod 11 whose check would be 10; not charged',
  invalid_payment: 'a `PAYMENT-SIGNATURE` that is not a decodable x402 payment (`cause.reason` `malformed_payment`)',
  image_too_large:
    'an image for `POST /v1/payment/qr/read` over 4096 px a side or 8 megapixels, refused from its header before decoding; not charged',
  missing_api_key: 'a route that needs a key got none',
  metrics_token_required: '`/metrics` without its bearer token',
  invalid_api_key:
    'a credential header with no usable key: empty, without `Bearer`, a malformed key, or a key unknown, rotated or revoked (the message says which)',
  payment_required:
    'no key and no payment, the no-key trial used up, or a refused x402 payment (`cause.reason` says which)',
  quota_exhausted: "the key's quota cannot hold the call's cost",
  verification_required: 'a mailed code is needed; one was sent to the address',
  verification_failed: 'a wrong, expired or locked code (`reason` says which)',
  unused_key: 'a claim for a key that has not served a call yet',
  cross_site_request: 'a key route called from a page on another site',
  metrics_forbidden: '`/metrics` with a wrong token',
  not_found: 'no such route (or a rail that is off)',
  bic_not_found: 'a well-formed BIC that no source lists',
  clearing_not_found: 'a well-formed IID that the clearing data does not list',
  checkout_not_found: 'a checkout session this server never started',
  method_not_allowed:
    'a method a data route or a pack route does not serve (`HEAD`, `GET` on a `POST` route, `PUT`, `OPTIONS` on a pack, ...), or `GET`/`DELETE` on `/mcp`; `Allow` names the method',
  request_timeout: 'headers or body too slow (30 s)',
  idempotency_in_progress: 'the first request with this `Idempotency-Key` is still being answered; `Retry-After: 1`',
  idempotency_answer_not_kept:
    'the first request with this `Idempotency-Key` was answered, but its answer was over 64 KiB and not kept; not charged. Resend without the key (a new call) if you need it',
  already_claimed: 'the key is already claimed',
  already_claimed_elsewhere: 'the address already holds a free key with proof, or claimed one in the last 24 hours',
  already_subscribed: 'Pro bought for a key that already has it',
  checkout_already_open:
    'Pro bought for a key that has a Pro checkout open; `checkout_url`, `session_id` and `expires_at` name it',
  not_subscribed: 'Pro cancelled on a key with no card subscription that still renews',
  key_already_shown: 'a later visit to a card success page; the key was shown once',
  idempotency_key_reused: 'this `Idempotency-Key` was used in the last 24 hours for another method, path or body',
  payment_data_invalid:
    'a payment `POST /v1/payment/qr` cannot put in a code; `errors` lists each rule broken as `{code, field, message}` (as `POST /v1/payment/check`)',
  image_unreadable: 'an image for `POST /v1/payment/qr/read` that is not a decodable PNG or JPEG',
  qr_not_found: 'no QR code could be read in the image',
  qr_standard_unknown:
    'a payload that is neither an EPC QR code (BCD) nor a Swiss QR code (SPC); `message` says where it departs',
  payload_too_large: 'a body over 1 MiB',
  unsupported_media_type: 'a body that is not `application/json`',
  expectation_failed: 'an `Expect` other than `100-continue`',
  key_creation_limit: 'the network has created its 3 free keys this UTC day; existing keys keep working',
  rate_limited: 'the address already got a key this UTC day (one key per address per day)',
  verification_rate_limited: '5 codes were already mailed to the address this UTC day',
  claim_rate_limited: "3 keys were already claimed from the caller's network this UTC day",
  headers_too_large: 'more than 200 header lines or 16 KiB of headers',
  internal_error: 'a fault of ours; nothing was charged',
  invalid_config: 'a setting refused at start-up; the server never listens, so no client sees it',
  payments_unavailable: 'the x402 facilitator or Stripe could not be reached; nothing was charged',
  verification_unavailable: 'the mail server cannot take the code now; nothing was counted',
  card_payments_unavailable: 'the card rail is off (`STRIPE_SECRET_KEY` unset)',
  unavailable:
    '`/readyz`: the database cannot be reached or written; on a card success page, a prefetch (the page is served only when opened)',
  storage_unavailable: 'the database cannot be reached or written; `Retry-After: 5`, nothing counted',
};

export type ErrorBody = Record<string, unknown> & { error: ErrorCode; message: string };

/**
 * Seconds a client should wait before retrying, sent as Retry-After with these codes (and
 * declared on the answers that may carry them in /openapi.json, openapi.ts).
 */
export const RETRY_AFTER: Partial<Record<ErrorCode, string>> = {
  storage_unavailable: '5',
  idempotency_in_progress: '1',
};

export interface HttpError {
  status: number;
  body: ErrorBody;
}

/**
 * The codes of a refused payment: on the wire their `reason`, with the facts about it (the trial's
 * `limit`, `day`, `resets_at`), sits in a `cause` object beside `options` (docs/api.md, "Errors").
 */
const REASON_IN_CAUSE: ReadonlySet<ErrorCode> = new Set([
  'payment_required',
  'invalid_payment',
  'payments_unavailable',
]);

/** The one place an error body is made: `reason` top-level, or in `cause` for a refused payment. */
export function httpError(code: ErrorCode, message: string, details: ErrorDetails = {}): HttpError {
  if (details.reason === undefined || !REASON_IN_CAUSE.has(code)) {
    return { status: STATUS[code], body: { error: code, message, ...details } };
  }
  const { options, ...cause } = details;
  return { status: STATUS[code], body: { error: code, message, cause, ...(options !== undefined && { options }) } };
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
  // Fastify's own errors (schema, body parser, URL) are Errors with its fields; anything else has none.
  const fe: Partial<FastifyError> = err instanceof Error ? err : {};
  const as = (error: DomainError) => ({ error, status: STATUS[error.code] });
  if (fe.validation) {
    const first = fe.validation[0];
    if (first?.keyword === 'maxItems' && String(first.instancePath).startsWith('/ibans')) return as(batchTooLarge());
    if (first?.keyword === 'maxLength' && first.instancePath === '/text') return as(textTooLong());
    // The member at fault as a path (`creditor.address.town`, as the payment check names fields),
    // a missing or unknown one included; a list item is named by its list (`ibans`).
    const member = first?.params?.missingProperty ?? first?.params?.additionalProperty;
    const path = [...segments(String(first?.instancePath ?? '')), ...(typeof member === 'string' ? [member] : [])];
    const inList = path.findIndex((part) => /^\d+$/.test(part));
    const field = (inList === -1 ? path : path.slice(0, inList)).join('.') || undefined;
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
  const { error, status } = classify(err, req);
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
