"""Mod97Error: a refusal of the service, or no usable answer at all."""

from __future__ import annotations

from typing import Any, Literal

from ._types import Quota

#: The codes of the service's error table (tests/test_types.py holds it to the service's own),
#: and the client's three for no answer or an unreadable one.
Mod97ErrorCode = Literal[
    "invalid_json",
    "invalid_request",
    "invalid_email",
    "disposable_email",
    "undeliverable_email",
    "key_in_url",
    "key_in_body",
    "key_in_idempotency_key",
    "invalid_signature",
    "batch_too_large",
    "text_too_long",
    "invalid_bic",
    "unsupported_country",
    "invalid_payment",
    "reference_empty",
    "reference_characters",
    "reference_length",
    "reference_not_creatable",
    "image_too_large",
    "missing_api_key",
    "invalid_api_key",
    "payment_required",
    "quota_exhausted",
    "verification_required",
    "verification_failed",
    "unused_key",
    "not_found",
    "bic_not_found",
    "clearing_not_found",
    "checkout_not_found",
    "method_not_allowed",
    "already_claimed",
    "already_claimed_elsewhere",
    "already_subscribed",
    "checkout_already_open",
    "not_subscribed",
    "idempotency_in_progress",
    "idempotency_answer_not_kept",
    "key_already_shown",
    "idempotency_key_reused",
    "payload_too_large",
    "unsupported_media_type",
    "headers_too_large",
    "request_timeout",
    "expectation_failed",
    "cross_site_request",
    "metrics_token_required",
    "metrics_forbidden",
    "key_creation_limit",
    "rate_limited",
    "verification_rate_limited",
    "claim_rate_limited",
    "payment_data_invalid",
    "image_unreadable",
    "qr_not_found",
    "qr_standard_unknown",
    "internal_error",
    "invalid_config",
    "payments_unavailable",
    "verification_unavailable",
    "card_payments_unavailable",
    "unavailable",
    "storage_unavailable",
    # the client's own: no HTTP answer (status 0), or one that is not a JSON object
    "connection_failed",
    "timeout",
    "invalid_response",
]


class Mod97Error(Exception):
    """A refusal or a failure; ``code`` equals ``body["error"]``.

    With no HTTP answer at all, ``status`` is 0 and ``code`` is ``connection_failed`` or
    ``timeout`` (a metered GET may then have been counted; a metered POST was sent with an
    Idempotency-Key, so it is counted at most once). ``code`` is typed as ``str`` because a
    newer service may answer codes this client does not list; compare it with the values of
    ``Mod97ErrorCode``.
    """

    status: int
    code: str
    message: str
    body: dict[str, Any]
    quota: Quota | None
    #: The answer's ``Retry-After``, in seconds: when to try again after a 429
    #: (``key_creation_limit``, ``rate_limited``, ...), a 503 or a 409 ``idempotency_in_progress``;
    #: None when it has none.
    retry_after: float | None

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        body: dict[str, Any] | None = None,
        quota: Quota | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{f'{status} ' if status else ''}{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body if body is not None else {"error": code, "message": message}
        self.quota = quota
        self.retry_after = retry_after

    def __reduce__(
        self,
    ) -> tuple[type[Mod97Error], tuple[int, str, str, dict[str, Any], Quota | None, float | None]]:
        # pickled whole (multiprocessing, task queues), not from the formatted sentence alone
        return (type(self), (self.status, self.code, self.message, self.body, self.quota, self.retry_after))

    def __repr__(self) -> str:
        return f"Mod97Error(status={self.status!r}, code={self.code!r}, message={self.message!r})"
