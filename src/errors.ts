/**
 * A failure the caller can act on. The domain throws these with a code from `ErrorCode`; the
 * HTTP edge maps each code to its status in one table (src/http/errors.ts), which must list
 * every code, so a new code cannot silently become a 400.
 */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_request'
  | 'invalid_email'
  | 'disposable_email'
  | 'undeliverable_email'
  | 'key_in_url'
  | 'key_in_body'
  | 'key_in_idempotency_key'
  | 'invalid_signature'
  | 'batch_too_large'
  | 'text_too_long'
  | 'invalid_bic'
  | 'unsupported_country'
  | 'reference_empty'
  | 'reference_characters'
  | 'reference_length'
  | 'reference_not_creatable'
  | 'invalid_payment'
  | 'image_too_large'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'payment_required'
  | 'quota_exhausted'
  | 'verification_required'
  | 'verification_failed'
  | 'unused_key'
  | 'not_found'
  | 'bic_not_found'
  | 'clearing_not_found'
  | 'checkout_not_found'
  | 'method_not_allowed'
  | 'already_claimed'
  | 'already_claimed_elsewhere'
  | 'already_subscribed'
  | 'checkout_already_open'
  | 'not_subscribed'
  | 'idempotency_in_progress'
  | 'idempotency_answer_not_kept'
  | 'key_already_shown'
  | 'idempotency_key_reused'
  | 'payment_data_invalid'
  | 'image_unreadable'
  | 'qr_not_found'
  | 'qr_standard_unknown'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'request_timeout'
  | 'expectation_failed'
  | 'cross_site_request'
  | 'metrics_token_required'
  | 'metrics_forbidden'
  | 'key_creation_limit'
  | 'rate_limited'
  | 'verification_rate_limited'
  | 'claim_rate_limited'
  | 'internal_error'
  | 'invalid_config'
  | 'payments_unavailable'
  | 'verification_unavailable'
  | 'card_payments_unavailable'
  | 'unavailable'
  | 'storage_unavailable';

/**
 * What an error says besides its code and message. `reason` is the one place its finer reason
 * sits (expired, trial_exhausted, ...), whichever field the wire puts it in (src/http/errors.ts).
 */
export interface ErrorDetails {
  reason?: string;
  [field: string]: unknown;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** Why, for the metrics: the finer reason where there is one, else the code. */
  get reason(): string {
    return this.details.reason ?? this.code;
  }
}
