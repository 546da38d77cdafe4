"""Mod97 and AsyncMod97: one method per route, the TypeScript client's names in snake_case."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from types import TracebackType
from typing import Literal, TypeVar

import httpx

from . import _routes as routes
from ._transport import DEFAULT_RETRIES, DEFAULT_TIMEOUT, Attempts, Call, answer, content_of, headers_for, settings
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

T = TypeVar("T")
SyncSelf = TypeVar("SyncSelf", bound="Mod97")
AsyncSelf = TypeVar("AsyncSelf", bound="AsyncMod97")


class Mod97:
    """The mod97 service, called synchronously.

    ``base_url`` defaults to ``MOD97_URL``, else ``http://127.0.0.1:3000``; ``api_key`` to
    ``MOD97_API_KEY`` (give ``""`` to send no key, e.g. for the no-key trial). The key is sent as
    ``Authorization: Bearer``, never in a URL or a body, without the spaces, tabs and line breaks
    around it; a key still holding anything but visible ASCII is never sent: each call raises
    ``Mod97Error`` ``invalid_api_key`` with status 0. ``timeout`` is in seconds per attempt
    (connecting, and each wait for the answer); ``retries`` the further attempts where a retry
    is safe. ``transport`` is handed to httpx (a proxy, a local address, a mock). Use it in a
    ``with`` block, or call ``close()``, to release its connections.
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url, self._api_key = settings(base_url, api_key)
        self._retries = retries
        self._http = httpx.Client(timeout=timeout, transport=transport)

    def __enter__(self: SyncSelf) -> SyncSelf:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def __repr__(self) -> str:
        return f"Mod97(base_url={self.base_url!r}, api_key={'set' if self._api_key else None!r})"

    def validate(self, iban: str, *, bic: str | None = None) -> Validation:
        """One IBAN checked (and the BIC it came with, when given). Costs 1."""
        return self._run(routes.validate(iban, bic))

    def batch(self, ibans: Sequence[str | BatchItem]) -> Batch:
        """1 to 1000 IBANs; results in the same order. Costs one per IBAN, admitted whole or not at all."""
        return self._run(routes.batch(ibans))

    def from_account(
        self, *, country: str, account: str, bank_code: str | None = None, branch_code: str | None = None
    ) -> FromAccount:
        """The IBAN of a domestic account number, validated. Costs 1."""
        return self._run(routes.from_account(country, account, bank_code, branch_code))

    def extract(self, text: str) -> Extract:
        """Every IBAN in ``text`` (1 to 20,000 characters), in text order, with offsets. Costs 1."""
        return self._run(routes.extract(text))

    def bic(self, code: str) -> Bic:
        return self._run(routes.bic(code))

    def compliance(self, *, iban: str | None = None, bic: str | None = None) -> Compliance:
        """Sanctions and country-risk screening of an IBAN or a BIC (give one of the two)."""
        return self._run(routes.compliance(iban, bic))

    def clearing(self, iid: str) -> Clearing:
        return self._run(routes.clearing(iid))

    def usage(self) -> Usage:
        """With a key: its balance; without one: the caller network's no-key trial."""
        return self._run(routes.usage())

    def daily_usage(self) -> DailyUsage:
        """The key's calls per day over its current period (free)."""
        return self._run(routes.daily_usage())

    def generate_key(
        self, *, email: str | None = None, code: str | None = None, source: str | None = None
    ) -> KeyCreated:
        """A new key; with ``email`` an email-tier key, which may first need a mailed ``code``."""
        return self._run(routes.generate_key(email, code, source))

    def rotate(self) -> Rotated:
        """A new secret for the key; the one this client holds stops working: use the new one."""
        return self._run(routes.rotate())

    def claim(self, *, email: str | None = None, code: str | None = None) -> CodeSent | Claimed:
        """Without ``code``: a code is mailed (``status`` ``code_sent``); with it: the key is claimed."""
        return self._run(routes.claim(email, code))

    def validate_reference(
        self, reference: str, *, type: ReferenceType | None = None, country: str | None = None
    ) -> Reference:
        """A structured payment reference (RF, QRR, Belgian OGM, Finnish, KID, OCR) checked. Costs 1."""
        return self._run(routes.validate_reference(reference, type, country))

    def create_reference(
        self, type: ReferenceType, from_: str, *, algorithm: Literal["mod10", "mod11"] | None = None
    ) -> Reference:
        """The reference of ``type`` made from ``from_`` (its check digits added). Costs 1."""
        return self._run(routes.create_reference(type, from_, algorithm))

    def check_payment(self, payment: Payment) -> PaymentCheck:
        """A payment as an invoice states it, checked field by field. Costs 1."""
        return self._run(routes.check_payment(payment))

    def payment_qr(
        self,
        payment: Payment,
        *,
        standard: QrStandard | None = None,
        format: Literal["svg", "png", "payload"] | None = None,
    ) -> PaymentQr:
        """The payment as an EPC (GiroCode) or Swiss QR-bill code: payload and image. Costs 1."""
        return self._run(routes.payment_qr(payment, standard, format))

    def read_payment_qr(self, *, payload: str | None = None, image: bytes | str | None = None) -> PaymentQrRead:
        """The payment a QR code carries (its payload, or a PNG or JPEG of it), checked. Costs 1."""
        return self._run(routes.read_payment_qr(payload, image))

    def _run(self, call: Call[T]) -> T:
        attempts = Attempts(call, self._retries, self._api_key)
        while True:
            try:
                response = self._http.request(
                    call.method,
                    self.base_url + call.path,
                    headers=headers_for(call, self._api_key, attempts.idempotency_key),
                    content=content_of(call),
                )
            except httpx.HTTPError as error:
                time.sleep(attempts.after_failure(error))
                continue
            pause = attempts.after_answer(response)
            if pause is None:
                return answer(call, response)
            time.sleep(pause)


class AsyncMod97:
    """The mod97 service, called with ``await``; the same options and methods as ``Mod97``.

    Use it in an ``async with`` block, or ``await close()``, to release its connections.
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url, self._api_key = settings(base_url, api_key)
        self._retries = retries
        self._http = httpx.AsyncClient(timeout=timeout, transport=transport)

    async def __aenter__(self: AsyncSelf) -> AsyncSelf:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self._http.aclose()

    def __repr__(self) -> str:
        return f"AsyncMod97(base_url={self.base_url!r}, api_key={'set' if self._api_key else None!r})"

    async def validate(self, iban: str, *, bic: str | None = None) -> Validation:
        return await self._run(routes.validate(iban, bic))

    async def batch(self, ibans: Sequence[str | BatchItem]) -> Batch:
        return await self._run(routes.batch(ibans))

    async def from_account(
        self, *, country: str, account: str, bank_code: str | None = None, branch_code: str | None = None
    ) -> FromAccount:
        return await self._run(routes.from_account(country, account, bank_code, branch_code))

    async def extract(self, text: str) -> Extract:
        return await self._run(routes.extract(text))

    async def bic(self, code: str) -> Bic:
        return await self._run(routes.bic(code))

    async def compliance(self, *, iban: str | None = None, bic: str | None = None) -> Compliance:
        return await self._run(routes.compliance(iban, bic))

    async def clearing(self, iid: str) -> Clearing:
        return await self._run(routes.clearing(iid))

    async def usage(self) -> Usage:
        return await self._run(routes.usage())

    async def daily_usage(self) -> DailyUsage:
        return await self._run(routes.daily_usage())

    async def generate_key(
        self, *, email: str | None = None, code: str | None = None, source: str | None = None
    ) -> KeyCreated:
        return await self._run(routes.generate_key(email, code, source))

    async def rotate(self) -> Rotated:
        return await self._run(routes.rotate())

    async def claim(self, *, email: str | None = None, code: str | None = None) -> CodeSent | Claimed:
        return await self._run(routes.claim(email, code))

    async def validate_reference(
        self, reference: str, *, type: ReferenceType | None = None, country: str | None = None
    ) -> Reference:
        return await self._run(routes.validate_reference(reference, type, country))

    async def create_reference(
        self, type: ReferenceType, from_: str, *, algorithm: Literal["mod10", "mod11"] | None = None
    ) -> Reference:
        return await self._run(routes.create_reference(type, from_, algorithm))

    async def check_payment(self, payment: Payment) -> PaymentCheck:
        return await self._run(routes.check_payment(payment))

    async def payment_qr(
        self,
        payment: Payment,
        *,
        standard: QrStandard | None = None,
        format: Literal["svg", "png", "payload"] | None = None,
    ) -> PaymentQr:
        return await self._run(routes.payment_qr(payment, standard, format))

    async def read_payment_qr(
        self, *, payload: str | None = None, image: bytes | str | None = None
    ) -> PaymentQrRead:
        return await self._run(routes.read_payment_qr(payload, image))

    async def _run(self, call: Call[T]) -> T:
        attempts = Attempts(call, self._retries, self._api_key)
        while True:
            try:
                response = await self._http.request(
                    call.method,
                    self.base_url + call.path,
                    headers=headers_for(call, self._api_key, attempts.idempotency_key),
                    content=content_of(call),
                )
            except httpx.HTTPError as error:
                await asyncio.sleep(attempts.after_failure(error))
                continue
            pause = attempts.after_answer(response)
            if pause is None:
                return answer(call, response)
            await asyncio.sleep(pause)
