"""AsyncMod97 against the real service: the same calls, awaited, and several at once."""

from __future__ import annotations

import asyncio

import pytest
from conftest import IBAN, async_client, quota

from mod97 import AsyncMod97, Mod97Error


@pytest.mark.engines
def test_validate_batch_key_usage_and_typed_refusals(url: str, address: str) -> None:
    async def scenario() -> None:
        async with async_client(url, address) as anonymous:
            created = await anonymous.generate_key(source="python async test")
            with pytest.raises(Mod97Error) as no_key:
                await anonymous.batch([IBAN])
            assert (no_key.value.status, no_key.value.code) == (402, "payment_required")
        async with async_client(url, address, api_key=created["api_key"]) as client:
            one = await client.validate(IBAN)
            assert one["valid"] is True and one["iban"] == "DE89370400440532013000"
            many = await client.batch([IBAN, "GB82WEST12345698765431"])
            assert [r["valid"] for r in many["results"]] == [True, False]
            usage = await client.usage()
            assert (usage["used"], usage["limit"]) == (3, 25)
            # Several calls in flight on one client, each charged once.
            answers = await asyncio.gather(*(client.validate(IBAN) for _ in range(5)))
            assert all(a["valid"] for a in answers)
            assert sorted(quota(a)["used"] for a in answers) == [4, 5, 6, 7, 8]
            await client.batch([IBAN] * 17)
            with pytest.raises(Mod97Error) as spent:
                await client.validate(IBAN)
            assert (spent.value.status, spent.value.code) == (402, "quota_exhausted")
            assert spent.value.quota is not None and spent.value.quota.get("exhausted") is True
        async with async_client(url, address, api_key="ifk_" + "1" * 64) as unknown:
            with pytest.raises(Mod97Error) as refused:
                await unknown.usage()
            assert (refused.value.status, refused.value.code) == (401, "invalid_api_key")

    asyncio.run(scenario())


def test_every_lookup_awaits_its_typed_answer(url: str, address: str) -> None:
    async def scenario() -> None:
        async with async_client(url, address) as anonymous:
            key = (await anonymous.generate_key())["api_key"]
        async with async_client(url, address, api_key=key) as client:
            built = await client.from_account(country="DE", bank_code="37040044", account="532013000")
            assert built["formatted"] == IBAN
            found = await client.extract(f"IBAN {IBAN}.")
            assert found["count"] == 1
            assert (await client.bic("COBADEFF"))["bic8"] == "COBADEFF"
            assert (await client.compliance(bic="COBADEFF"))["subject"]["bic"] == "COBADEFFXXX"
            assert (await client.clearing("100"))["iid"] == "100"
            assert (await client.daily_usage())["total"] == 5
            rotated = await client.rotate()
            assert rotated["previous_key_prefix"] == key[:8]
            with pytest.raises(Mod97Error) as refused:
                await client.usage()
            assert refused.value.code == "invalid_api_key"

    asyncio.run(scenario())


def test_an_async_client_is_closed_after_its_block(url: str, address: str) -> None:
    async def scenario() -> AsyncMod97:
        async with async_client(url, address) as client:
            assert (await client.usage())["tier"] == "trial"
        return client

    client = asyncio.run(scenario())
    with pytest.raises(RuntimeError):
        asyncio.run(client.usage())
