"""Payment references, the payment check and payment QR codes (the service's docs/api.md, "Payment references" to "Payment QR codes"), against the service.

These routes are being built beside the client: each test needing one skips, saying so, until the
service serves it, and runs from the day it does.
"""

from __future__ import annotations

import asyncio
import base64
from typing import Any, cast

import pytest
from conftest import Factory, async_client, quota

from mod97 import Mod97Error, Payment

IBAN_DE = "DE89370400440532013000"
QR_IBAN = "CH4431999123000889012"
RF = "RF18539007547034"
QRR = "210000000003139471430009017"

EPC_PAYMENT: Payment = {
    "creditor": {"iban": IBAN_DE, "name": "Ada Lovelace GmbH"},
    "amount": "12.50",
    "currency": "EUR",
    "reference": RF,
}


def changed(**fields: Any) -> Payment:
    """EPC_PAYMENT with some fields replaced."""
    return cast(Payment, {**EPC_PAYMENT, **fields})


def served(openapi: dict[str, Any], *paths: str) -> None:
    """Skips the test, naming them, while the service does not serve these routes yet."""
    missing = [path for path in paths if path not in openapi["paths"]]
    if missing:
        pytest.skip(f"the service does not serve {', '.join(missing)} yet")


def test_references_of_each_kind_are_recognised_and_checked(
    openapi: dict[str, Any], make_client: Factory, key: str
) -> None:
    served(openapi, "/v1/reference/validate")
    client = make_client(api_key=key)
    rf = client.validate_reference("rf18 5390 0754 7034")
    assert (rf["reference"], rf["type"], rf["valid"], rf["formatted"]) == (RF, "rf", True, "RF18 5390 0754 7034")
    assert quota(rf)["used"] == 1
    qrr = client.validate_reference("21 00000 00003 13947 14300 09017")
    assert (qrr["type"], qrr["valid"]) == ("qrr", True)
    ogm = client.validate_reference("+++090/9337/55493+++")
    assert (ogm["type"], ogm["valid"]) == ("be_ogm", True)
    mistyped = client.validate_reference("RF19 5390 0754 7034")
    assert mistyped["valid"] is False
    assert "reference_check_failed" in [e["code"] for e in mistyped["errors"]]
    assert mistyped["suggestions"][0].replace(" ", "") == RF, "the mistyped check digits come first"
    unknown = client.validate_reference("1234567")
    assert (unknown["type"], unknown["valid"]) == (None, False)
    assert [e["code"] for e in unknown["errors"]] == ["reference_type_unknown"]
    assert isinstance(unknown["errors"][0].get("candidates"), list)


def test_a_reference_is_made_with_its_check_digits(openapi: dict[str, Any], make_client: Factory, key: str) -> None:
    served(openapi, "/v1/reference/create")
    client = make_client(api_key=key)
    assert client.create_reference("rf", "539007547034")["reference"] == RF
    made = client.create_reference("qrr", QRR[:26])
    assert (made["reference"], made["valid"]) == (QRR, True)


def test_a_payment_is_checked_field_by_field(openapi: dict[str, Any], make_client: Factory, key: str) -> None:
    served(openapi, "/v1/payment/check")
    client = make_client(api_key=key)
    good = client.check_payment(EPC_PAYMENT)
    assert (good["valid"], good["errors"]) == (True, [])
    assert good["iban"]["valid"] is True
    assert good["reference"] is not None and good["reference"]["type"] == "rf"
    francs = client.check_payment(changed(currency="CHF", scheme="sct"))
    assert francs["valid"] is False
    assert "currency_not_allowed" in [e["code"] for e in francs["errors"]]
    qr_iban = client.check_payment({"creditor": {"iban": QR_IBAN, "name": "Muster AG"}, "currency": "CHF"})
    assert "qr_iban_needs_qrr" in [e["code"] for e in qr_iban["errors"]]


def test_a_payment_qr_code_is_drawn_and_read_back(openapi: dict[str, Any], make_client: Factory, key: str) -> None:
    served(openapi, "/v1/payment/qr", "/v1/payment/qr/read")
    client = make_client(api_key=key)
    payload = client.payment_qr(EPC_PAYMENT, format="payload")
    assert payload["standard"] == "epc" and "image" not in payload
    lines = payload["payload"].split("\n")
    assert lines[:4] == ["BCD", "002", "1", "SCT"]
    assert lines[6] == IBAN_DE and lines[7].startswith("EUR12.5")
    svg = client.payment_qr(EPC_PAYMENT)
    assert svg["image"]["format"] == "svg" and "<svg" in svg["image"]["data"]
    png = client.payment_qr(EPC_PAYMENT, format="png")
    picture = base64.b64decode(png["image"]["data"])
    assert picture.startswith(b"\x89PNG")
    for read in (client.read_payment_qr(payload=payload["payload"]), client.read_payment_qr(image=picture)):
        assert read["standard"] == "epc"
        assert read["fields"]["creditor"]["iban"] == IBAN_DE
        assert read["check"]["valid"] is True


def test_payment_refusals_are_typed(openapi: dict[str, Any], make_client: Factory, key: str) -> None:
    served(openapi, "/v1/payment/qr", "/v1/payment/qr/read")
    client = make_client(api_key=key)
    with pytest.raises(Mod97Error) as invalid:
        client.payment_qr(changed(creditor={"iban": "DE00", "name": "X"}))
    assert (invalid.value.status, invalid.value.code) == (422, "payment_data_invalid")
    assert invalid.value.body["errors"]
    with pytest.raises(Mod97Error) as unknown:
        client.read_payment_qr(payload="hello")
    assert (unknown.value.status, unknown.value.code) == (422, "qr_standard_unknown")


def test_async_references_and_payments(openapi: dict[str, Any], url: str, address: str) -> None:
    served(openapi, *(f"/v1/{path}" for path in ("reference/validate", "reference/create", "payment/check")))
    served(openapi, "/v1/payment/qr", "/v1/payment/qr/read")
    async def scenario() -> None:
        async with async_client(url, address) as anonymous:
            key = (await anonymous.generate_key())["api_key"]
        async with async_client(url, address, api_key=key) as client:
            assert (await client.validate_reference(RF))["valid"] is True
            assert (await client.create_reference("rf", "539007547034"))["reference"] == RF
            assert (await client.check_payment(EPC_PAYMENT))["valid"] is True
            drawn = await client.payment_qr(EPC_PAYMENT, format="payload")
            assert (await client.read_payment_qr(payload=drawn["payload"]))["check"]["valid"] is True

    asyncio.run(scenario())


def test_read_payment_qr_takes_a_payload_or_an_image(make_client: Factory) -> None:
    client = make_client()
    with pytest.raises(TypeError):
        client.read_payment_qr()
    with pytest.raises(TypeError):
        client.read_payment_qr(payload="BCD", image=b"\x89PNG")
