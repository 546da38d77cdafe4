"""The client's types held to the running service: its error table and its OpenAPI answer schemas.

A field the service adds, drops, makes optional or nullable fails here until the TypedDict says
the same, so the types mypy checks a program against are the ones the service answers.
"""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from conftest import service_error_codes

import mod97
from mod97 import Mod97ErrorCode

CLIENT_OWN = {"connection_failed", "timeout", "invalid_response"}
#: Codes the contract names for routes being built (docs/api.md): listed ahead, so a
#: client is ready the day they answer; each leaves this set once the service's table has it.
AHEAD = {
    "key_in_idempotency_key",
    "idempotency_answer_not_kept",
    "reference_empty",
    "reference_characters",
    "reference_length",
    "reference_not_creatable",
    "payment_data_invalid",
    "image_too_large",
    "image_unreadable",
    "qr_not_found",
    "qr_standard_unknown",
}

# (method, path, status) -> the TypedDict of that answer
ANSWERS: dict[tuple[str, str, str], Any] = {
    ("post", "/v1/iban/validate", "200"): mod97.Validation,
    ("post", "/v1/iban/batch", "200"): mod97.Batch,
    ("post", "/v1/iban/from-account", "200"): mod97.FromAccount,
    ("post", "/v1/iban/extract", "200"): mod97.Extract,
    ("get", "/v1/bic/{code}", "200"): mod97.Bic,
    ("post", "/v1/iban/compliance", "200"): mod97.Compliance,
    ("get", "/v1/ch/clearing/{iid}", "200"): mod97.Clearing,
    ("get", "/v1/keys/usage", "200"): mod97.Usage,
    ("get", "/v1/keys/usage/daily", "200"): mod97.DailyUsage,
    ("post", "/v1/keys/generate", "201"): mod97.KeyCreated,
    ("post", "/v1/keys/rotate", "200"): mod97.Rotated,
    ("post", "/v1/keys/claim", "202"): mod97.CodeSent,
    ("post", "/v1/keys/claim", "200"): mod97.Claimed,
}
PAYMENT_ANSWERS: dict[tuple[str, str, str], Any] = {
    ("post", "/v1/reference/validate", "200"): mod97.Reference,
    ("post", "/v1/reference/create", "200"): mod97.Reference,
    ("post", "/v1/payment/check", "200"): mod97.PaymentCheck,
    ("post", "/v1/payment/qr", "200"): mod97.PaymentQr,
    ("post", "/v1/payment/qr/read", "200"): mod97.PaymentQrRead,
}


def test_the_error_codes_are_the_service_s_own() -> None:
    service = service_error_codes()
    assert len(service) > 40, "npm test passes the service's error table in MOD97_TEST_ERROR_CODES"
    client = set(get_args(Mod97ErrorCode))
    assert service - client == set(), "codes the service answers that Mod97ErrorCode lacks"
    assert client - service - CLIENT_OWN - AHEAD == set(), "codes the service no longer has"


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = document
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def schema_types(schema: dict[str, Any]) -> set[str]:
    kind = schema.get("type")
    found = set(kind) if isinstance(kind, list) else {kind} if kind else set()
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        found |= schema_types(branch)
    return found


def differences(document: dict[str, Any], schema: dict[str, Any], annotation: Any, where: str) -> list[str]:
    """How `annotation` (a type of mod97) differs from `schema`: names, required keys, null."""
    schema = resolve(document, schema)
    args = get_args(annotation)
    is_union = get_origin(annotation) in (Union, types.UnionType)
    nullable = is_union and type(None) in args
    problems = []
    if ("null" in schema_types(schema)) != nullable:
        problems.append(f"{where}: null {'not ' if nullable else ''}allowed by the service")
    if is_union:
        rest = [a for a in args if a is not type(None)]
        annotation = rest[0] if len(rest) == 1 else None
    if is_typeddict(annotation):
        hints = get_type_hints(annotation)
        properties: dict[str, Any] = schema.get("properties", {})
        if set(hints) != set(properties):
            problems.append(f"{where}: fields {sorted(set(hints) ^ set(properties))} differ")
        required = set(schema.get("required", []))
        if set(annotation.__required_keys__) != required:
            problems.append(f"{where}: required {sorted(set(annotation.__required_keys__) ^ required)} differ")
        for name in set(hints) & set(properties):
            problems += differences(document, properties[name], hints[name], f"{where}.{name}")
    elif get_origin(annotation) is list and "items" in schema:
        problems += differences(document, schema["items"], get_args(annotation)[0], f"{where}[]")
    return problems


def answer_schema(document: dict[str, Any], method: str, path: str, status: str) -> dict[str, Any]:
    response = resolve(document, document["paths"][path][method]["responses"][status])
    schema: dict[str, Any] = response["content"]["application/json"]["schema"]
    return schema


@pytest.mark.parametrize("route", list(ANSWERS), ids=lambda r: f"{r[0].upper()} {r[1]} {r[2]}")
def test_each_answer_type_is_the_service_s_schema(openapi: dict[str, Any], route: tuple[str, str, str]) -> None:
    method, path, status = route
    schema = answer_schema(openapi, method, path, status)
    assert differences(openapi, schema, ANSWERS[route], ANSWERS[route].__name__) == []


@pytest.mark.parametrize("route", list(PAYMENT_ANSWERS), ids=lambda r: f"{r[0].upper()} {r[1]}")
def test_each_payment_answer_type_is_the_service_s_schema(
    openapi: dict[str, Any], route: tuple[str, str, str]
) -> None:
    method, path, status = route
    if path not in openapi["paths"]:
        pytest.skip(f"{path} is not served yet")
    schema = answer_schema(openapi, method, path, status)
    assert differences(openapi, schema, PAYMENT_ANSWERS[route], PAYMENT_ANSWERS[route].__name__) == []


def test_a_difference_is_seen() -> None:
    """The comparison itself: a type that differs from its schema is reported, not passed."""
    document: dict[str, Any] = {}
    schema = {
        "type": "object",
        "required": ["used", "limit", "remaining", "month"],
        "properties": {
            "used": {"type": "integer"},
            "limit": {"type": ["integer", "null"]},
            "remaining": {"type": "integer"},
            "month": {"type": "string"},
            "extra": {"type": "string"},
        },
    }
    assert differences(document, schema, mod97.Quota, "Quota") == [
        "Quota: fields ['exhausted', 'extra'] differ",
        "Quota.limit: null allowed by the service",
    ]
