"""The client in one page: validate, batch, make a key, read its usage, and the typed refusals.

    MOD97_URL=http://127.0.0.1:3000 python examples/quickstart.py

It makes a key of its own (one per address a day), then does the same with the async client.
mypy --strict checks this file as a program using the package would be checked.
"""

from __future__ import annotations

import asyncio

from mod97 import AsyncMod97, Batch, Mod97, Mod97Error, Validation, quota_of

IBAN = "DE89 3704 0044 0532 0130 00"
UNKNOWN_KEY = "ifk_" + "0" * 64


def show(answer: Validation) -> str:
    bank = answer["bank"]["name"] if answer["bank"] else "no bank known"
    return f"{answer['formatted']}: {'valid' if answer['valid'] else 'invalid'} ({bank})"


def summary(batch: Batch) -> str:
    codes = [error["code"] for result in batch["results"] for error in result["errors"]]
    return f"{batch['valid']} of {batch['count']} valid, errors {codes}"


def with_sync() -> str:
    with Mod97(api_key="") as anonymous:
        try:
            anonymous.batch([IBAN])
        except Mod97Error as refusal:
            print(f"sync no key: {refusal.status} {refusal.code}")
        api_key = anonymous.generate_key(source="quickstart")["api_key"]
    with Mod97(api_key=api_key) as mod97:
        print("sync validate:", show(mod97.validate(IBAN)))
        batch = mod97.batch([IBAN, "GB82 WEST 1234 5698 7654 31"])
        print("sync batch:", summary(batch))
        usage = mod97.usage()
        print(f"sync usage: {usage['used']} of {usage['limit']}, quota {quota_of(batch)}")
    with Mod97(api_key=UNKNOWN_KEY) as stranger:
        try:
            stranger.usage()
        except Mod97Error as refusal:
            print(f"sync unknown key: {refusal.status} {refusal.code}")
    return api_key


async def with_async(api_key: str) -> None:
    async with AsyncMod97(api_key="") as anonymous:
        try:
            await anonymous.batch([IBAN])
        except Mod97Error as refusal:
            print(f"async no key: {refusal.status} {refusal.code}")
    async with AsyncMod97(api_key=api_key) as mod97:
        one, batch = await asyncio.gather(mod97.validate(IBAN), mod97.batch([IBAN, IBAN]))
        print("async validate:", show(one))
        print("async batch:", summary(batch))
        usage = await mod97.usage()
        print(f"async usage: {usage['used']} of {usage['limit']}")
    async with AsyncMod97(api_key=UNKNOWN_KEY) as stranger:
        try:
            await stranger.validate(IBAN)
        except Mod97Error as refusal:
            print(f"async unknown key: {refusal.status} {refusal.code}")


if __name__ == "__main__":
    asyncio.run(with_async(with_sync()))
