"""Mod97 against the real service: every method, typed answers and refusals, quota, settings."""

from __future__ import annotations

import json
import pickle

import httpx
import pytest
from conftest import IBAN, Factory, quota

from mod97 import Mod97, Mod97Error, quota_of


@pytest.mark.engines
def test_validate_and_batch_answer_typed_results_with_the_quota_beside_them(make_client: Factory, key: str) -> None:
    client = make_client(api_key=key)
    one = client.validate(IBAN)
    assert one["valid"] is True
    assert one["formatted"] == IBAN
    assert one["bank"] is not None and one["bank"]["bic"] == "COBADEFFXXX"
    assert quota_of(one) == {"used": 1, "limit": 25, "remaining": 24, "month": "2026-11"}
    assert "quota" not in json.loads(json.dumps(one)), "the answer is the JSON as received"
    many = client.batch([IBAN, "de89370400440532013001", ""])
    assert [(r["valid"], [e["code"] for e in r["errors"]]) for r in many["results"]] == [
        (True, []),
        (False, ["checksum_failed"]),
        (False, ["empty"]),
    ]
    assert many["count"] == 3 and many["invalid"] == 2
    assert quota(many)["remaining"] == 21


def test_a_bic_is_checked_with_the_iban_and_an_iban_is_built_from_an_account(make_client: Factory, key: str) -> None:
    client = make_client(api_key=key)
    checked = client.validate(IBAN, bic="DEUTDEFF")
    assert "bic_check" in checked
    assert (checked["bic_check"]["bic"], checked["bic_check"]["matches"]) == ("DEUTDEFF", False)
    assert "COBADEFFXXX" in checked["bic_check"]["expected"]
    many = client.batch([{"iban": IBAN, "bic": "COBADEFF"}, IBAN])
    assert [r.get("bic_check", {}).get("matches", "none") for r in many["results"]] == [True, "none"]
    built = client.from_account(country="DE", bank_code="37040044", account="532013000")
    assert built["formatted"] == IBAN
    assert built["constructed_from"]["country"] == "DE"
    with pytest.raises(Mod97Error) as refused:
        client.from_account(country="XX", bank_code="1", account="1")
    assert refused.value.status == 400


def test_extract_bic_compliance_and_clearing(make_client: Factory, key: str) -> None:
    client = make_client(api_key=key)
    found = client.extract("Please pay to IBAN: DE89 3704 0044 0532 0130 00 by 30 November.")
    assert [(item["iban"], item["start"]) for item in found["items"]] == [("DE89370400440532013000", 20)]
    bic = client.bic("COBADEFF")
    assert bic["bic11"] == "COBADEFFXXX" and bic["country"]["code"] == "DE"
    by_iban = client.compliance(iban=IBAN)
    assert by_iban["subject"]["iban_valid"] is True
    assert by_iban["level"] in ("low", "medium", "high")
    assert client.compliance(bic="COBADEFF")["subject"]["iban"] is None
    clearing = client.clearing("100")
    assert clearing["iid"] == "100"
    assert quota(clearing)["used"] == 5


def test_usage_with_a_key_and_the_no_key_trial(make_client: Factory, key: str) -> None:
    with_key = make_client(api_key=key).usage()
    assert with_key["tier"] == "anonymous"
    assert with_key.get("key_prefix") == key[:8]
    assert with_key.get("claim", {}).get("raises_limit_to") == 200
    daily = make_client(api_key=key).daily_usage()
    assert daily["total"] == 0 and daily["to"] == "2026-11-21"
    trial = make_client().usage()
    assert trial["tier"] == "trial" and trial["basis"] == "daily"
    assert quota_of(trial) is None, "no key, no quota headers"


def test_generate_key_and_rotate_then_the_old_secret_is_a_typed_401(make_client: Factory) -> None:
    created = make_client().generate_key(source="python client test")
    assert created["api_key"].startswith("ifk_") and len(created["api_key"]) == 68
    assert created["tier"] == "anonymous"
    old = make_client(api_key=created["api_key"])
    rotated = old.rotate()
    assert rotated["previous_key_prefix"] == created["key_prefix"]
    with pytest.raises(Mod97Error) as refused:
        old.usage()
    assert (refused.value.status, refused.value.code) == (401, "invalid_api_key")
    assert refused.value.body["error"] == "invalid_api_key"
    assert make_client(api_key=rotated["api_key"]).usage()["used"] == 0
    # A client left holding the dead key can still make a new one: generate is sent without it.
    assert old.generate_key(source="python client test")["api_key"].startswith("ifk_")


def test_refusals_are_mod97_errors_with_status_code_message_body_and_quota(make_client: Factory, key: str) -> None:
    client = make_client(api_key=key)
    with pytest.raises(Mod97Error) as not_found:
        client.bic("XXXXDEFF")
    error = not_found.value
    assert (error.status, error.code, error.body["error"]) == (404, "bic_not_found", "bic_not_found")
    assert error.message and error.message == error.body["message"]
    assert str(error) == f"404 bic_not_found: {error.message}"
    assert error.quota is not None and error.quota["used"] == 0, "refunded, and the headers say so"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.status, copy.code, copy.body, copy.quota) == (404, error.code, error.body, error.quota)
    assert str(copy) == str(error), "pickled whole, e.g. across processes"
    with pytest.raises(Mod97Error) as bad:
        client.clearing("abc")
    assert (bad.value.status, bad.value.code) == (400, "invalid_request")


@pytest.mark.engines
def test_a_spent_key_is_a_typed_402_with_its_options(make_client: Factory, key: str) -> None:
    client = make_client(api_key=key)
    client.batch([IBAN] * 25)
    with pytest.raises(Mod97Error) as spent:
        client.validate(IBAN)
    assert (spent.value.status, spent.value.code) == (402, "quota_exhausted")
    assert spent.value.quota == {"used": 25, "limit": 25, "remaining": 0, "month": "2026-11", "exhausted": True}
    assert isinstance(spent.value.body["options"], list) and spent.value.body["options"]
    with pytest.raises(Mod97Error) as no_key:
        make_client().batch([IBAN])
    assert (no_key.value.status, no_key.value.code) == (402, "payment_required")


def test_an_unknown_key_is_a_typed_401(make_client: Factory) -> None:
    with pytest.raises(Mod97Error) as refused:
        make_client(api_key="ifk_" + "0" * 64).validate(IBAN)
    assert (refused.value.status, refused.value.code) == (401, "invalid_api_key")


def test_the_key_and_the_service_come_from_the_environment(
    url: str, address: str, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOD97_URL", url + "/")
    monkeypatch.setenv("MOD97_API_KEY", key)
    transport = httpx.HTTPTransport(local_address=address)
    with Mod97(transport=transport) as client:
        assert client.base_url == url
        assert client.usage().get("key_prefix") == key[:8]
        assert key not in repr(client), "the key is never shown"
    with Mod97(api_key="", transport=httpx.HTTPTransport(local_address=address)) as keyless:
        assert keyless.usage()["tier"] == "trial", 'api_key="" sends no key'


def test_a_client_used_as_a_context_manager_is_closed_after_it(make_client: Factory) -> None:
    with make_client() as client:
        assert client.usage()["tier"] == "trial"
    with pytest.raises(RuntimeError):
        client.usage()
