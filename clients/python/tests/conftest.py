"""The tests run against a real mod97 service: `npm test` starts one and names it in MOD97_TEST_URL
(test/clients/python.test.ts). Each test that needs a network of its own (a key is one per
address and day) sends from its own loopback address, through httpx's local_address.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from mod97 import AsyncMod97, Mod97, Quota, quota_of

IBAN = "DE89 3704 0044 0532 0130 00"

_addresses = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "engines: runs on every store engine (SQLite and PostgreSQL)")


@pytest.fixture(scope="session")
def url() -> str:
    value = os.environ.get("MOD97_TEST_URL")
    if not value:
        pytest.fail("MOD97_TEST_URL is not set: run these tests with npm test, which starts the service.")
    return value


@pytest.fixture(scope="session")
def openapi(url: str) -> dict[str, Any]:
    # built on its first request, which a busy machine may take seconds over
    document: dict[str, Any] = httpx.get(f"{url}/openapi.json", timeout=120).json()
    return document


@pytest.fixture
def address() -> str:
    """A loopback address no other test of this run sends from: a network of its own."""
    prefix = os.environ.get("MOD97_TEST_NETWORK", "127.0.35")
    n = next(_addresses)
    return f"{prefix}.{n}" if n < 255 else pytest.fail("out of loopback addresses")


Factory = Callable[..., Mod97]


@pytest.fixture
def make_client(url: str, address: str) -> Iterator[Factory]:
    """Clients of the service sending from this test's address (closed after the test)."""
    made: list[Mod97] = []

    def make(**options: Any) -> Mod97:
        options.setdefault("base_url", url)
        options.setdefault("api_key", "")
        options.setdefault("transport", httpx.HTTPTransport(local_address=address))
        client = Mod97(**options)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


def async_client(url: str, address: str, **options: Any) -> AsyncMod97:
    options.setdefault("base_url", url)
    options.setdefault("api_key", "")
    return AsyncMod97(transport=httpx.AsyncHTTPTransport(local_address=address), **options)


@pytest.fixture
def key(make_client: Factory) -> str:
    """A fresh anonymous key (25 calls a month), made from this test's address."""
    return make_client().generate_key(source="python client tests")["api_key"]


def service_error_codes() -> set[str]:
    return set(json.loads(os.environ.get("MOD97_TEST_ERROR_CODES", "[]")))


def quota(answer: Any) -> Quota:
    """The quota headers of an answer, which a call with a key always has."""
    found = quota_of(answer)
    assert found is not None, "the answer carries no X-Quota-* headers"
    return found
