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
  | 'invalid_signature'
  | 'batch_too_large'
  | 'text_too_long'
  | 'invalid_bic'
  | 'unsupported_country'
  | 'invalid_payment'
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
  | 'not_subscribed'
  | 'idempotency_in_progress'
  | 'key_already_shown'
  | 'idempotency_key_reused'
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

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** Why: `details.cause.reason` where a 402 names one (trial_exhausted, ...), else the code. */
  get reason(): string {
    const { cause } = this.details;
    const reason = typeof cause === 'object' && cause !== null && 'reason' in cause ? cause.reason : undefined;
    return typeof reason === 'string' ? reason : this.code;
  }
}
