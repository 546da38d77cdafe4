"""Every route, once: the request each client method sends, for the sync and the async client."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any, Literal
from urllib.parse import quote

from ._transport import Call
from ._types import (
    Batch,
    BatchItem,
    Bic,
    Claimed,
    Clearing,
    CodeSent,
    Compliance,
    DailyUsage,
    Extract,
    FromAccount,
    KeyCreated,
    Payment,
    PaymentCheck,
    PaymentQr,
    PaymentQrRead,
    QrStandard,
    Reference,
    ReferenceType,
    Rotated,
    Usage,
    Validation,
)


def _given(**fields: Any) -> dict[str, Any]:
    """The fields that were given: an omitted option is left out of the body, never sent as null."""
    return {name: value for name, value in fields.items() if value is not None}


def _segment(value: str) -> str:
    return quote(value, safe="")


def validate(iban: str, bic: str | None) -> Call[Validation]:
    return Call("POST", "/v1/iban/validate", "metered", _given(iban=iban, bic=bic))


def batch(ibans: Sequence[str | BatchItem]) -> Call[Batch]:
    return Call("POST", "/v1/iban/batch", "metered", {"ibans": list(ibans)})


def from_account(country: str, account: str, bank_code: str | None, branch_code: str | None) -> Call[FromAccount]:
    body = _given(country=country, bank_code=bank_code, branch_code=branch_code, account=account)
    return Call("POST", "/v1/iban/from-account", "metered", body)


def extract(text: str) -> Call[Extract]:
    return Call("POST", "/v1/iban/extract", "metered", {"text": text})


def bic(code: str) -> Call[Bic]:
    return Call("GET", f"/v1/bic/{_segment(code)}", "metered")


def compliance(iban: str | None, bic: str | None) -> Call[Compliance]:
    return Call("POST", "/v1/iban/compliance", "metered", _given(iban=iban, bic=bic))


def clearing(iid: str) -> Call[Clearing]:
    return Call("GET", f"/v1/ch/clearing/{_segment(iid)}", "metered")


def usage() -> Call[Usage]:
    return Call("GET", "/v1/keys/usage", "read")


def daily_usage() -> Call[DailyUsage]:
    return Call("GET", "/v1/keys/usage/daily", "read")


def generate_key(email: str | None, code: str | None, source: str | None) -> Call[KeyCreated]:
    # Sent without the client's key: the route uses none, and a stale one would have it refused.
    return Call(
        "POST", "/v1/keys/generate", "write", _given(email=email, code=code, source=source), ok=(201,), sends_key=False
    )


def rotate() -> Call[Rotated]:
    return Call("POST", "/v1/keys/rotate", "write")


def claim(email: str | None, code: str | None) -> Call[CodeSent | Claimed]:
    return Call("POST", "/v1/keys/claim", "write", _given(email=email, code=code), ok=(200, 202))


def validate_reference(reference: str, type: ReferenceType | None, country: str | None) -> Call[Reference]:
    return Call("POST", "/v1/reference/validate", "metered", _given(reference=reference, type=type, country=country))


def create_reference(
    type: ReferenceType, from_: str, algorithm: Literal["mod10", "mod11"] | None
) -> Call[Reference]:
    body = _given(type=type, algorithm=algorithm)
    body["from"] = from_
    return Call("POST", "/v1/reference/create", "metered", body)


def check_payment(payment: Payment) -> Call[PaymentCheck]:
    return Call("POST", "/v1/payment/check", "metered", dict(payment))


def payment_qr(
    payment: Payment, standard: QrStandard | None, format: Literal["svg", "png", "payload"] | None
) -> Call[PaymentQr]:
    body: dict[str, Any] = {**payment, **_given(standard=standard, format=format)}
    return Call("POST", "/v1/payment/qr", "metered", body)


def read_payment_qr(payload: str | None, image: bytes | str | None) -> Call[PaymentQrRead]:
    """A payload as text, or an image: PNG or JPEG bytes (sent as base64), or base64 text as is."""
    if (payload is None) == (image is None):
        raise TypeError("read_payment_qr takes a payload or an image, one of the two.")
    if isinstance(image, bytes):
        image = base64.b64encode(image).decode("ascii")
    return Call("POST", "/v1/payment/qr/read", "metered", _given(payload=payload, image=image))
