"""The typed Python client of the mod97 service.

    from mod97 import Mod97, Mod97Error

    with Mod97() as mod97:  # MOD97_URL and MOD97_API_KEY from the environment
        answer = mod97.validate("DE89 3704 0044 0532 0130 00")
        print(answer["valid"], answer["formatted"], quota_of(answer))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._client import AsyncMod97, Mod97
from ._errors import Mod97Error, Mod97ErrorCode
from ._types import (
    AccountParts,
    Address,
    Attribution,
    BankByCode,
    Basis,
    Batch,
    BatchItem,
    Bban,
    Bic,
    BicCheck,
    BicCountry,
    Branch,
    ClaimOffer,
    Claimed,
    Clearing,
    ClearingAddress,
    ClearingSuccessor,
    CodeSent,
    Compliance,
    ComplianceSubject,
    ConstructedFrom,
    Country,
    CountryList,
    DailyUsage,
    DayUsed,
    Creditor,
    Debtor,
    ErrorBody,
    Extract,
    ExtractItem,
    FromAccount,
    GetKey,
    IbanClearing,
    IbanError,
    IbanResult,
    IbanRule,
    KeyCreated,
    Lei,
    NationalCheck,
    OcrRepair,
    Payment,
    PaymentCheck,
    PaymentProblem,
    PaymentQr,
    PaymentQrRead,
    QrImage,
    QrStandard,
    Quota,
    Reference,
    ReferenceProblem,
    ReferenceType,
    RiskFlag,
    Rotated,
    SanctionMatch,
    Sanctions,
    Sepa,
    SourceRef,
    Tier,
    Trial,
    Usage,
    Validation,
    Vop,
)


def quota_of(answer: Mapping[str, Any]) -> Quota | None:
    """The key's balance after the call that gave ``answer`` (its ``X-Quota-*`` headers).

    None when no key was sent, or for a dictionary that is not a client's answer.
    """
    quota: Quota | None = getattr(answer, "quota", None)
    return quota


__all__ = [
    "AccountParts",
    "Address",
    "AsyncMod97",
    "Attribution",
    "BankByCode",
    "Basis",
    "Batch",
    "BatchItem",
    "Bban",
    "Bic",
    "BicCheck",
    "BicCountry",
    "Branch",
    "ClaimOffer",
    "Claimed",
    "Clearing",
    "ClearingAddress",
    "ClearingSuccessor",
    "CodeSent",
    "Compliance",
    "ComplianceSubject",
    "ConstructedFrom",
    "Country",
    "CountryList",
    "DailyUsage",
    "DayUsed",
    "Creditor",
    "Debtor",
    "ErrorBody",
    "Extract",
    "ExtractItem",
    "FromAccount",
    "GetKey",
    "IbanClearing",
    "IbanError",
    "IbanResult",
    "IbanRule",
    "KeyCreated",
    "Lei",
    "Mod97",
    "Mod97Error",
    "Mod97ErrorCode",
    "NationalCheck",
    "OcrRepair",
    "Payment",
    "PaymentCheck",
    "PaymentProblem",
    "PaymentQr",
    "PaymentQrRead",
    "QrImage",
    "QrStandard",
    "Quota",
    "Reference",
    "ReferenceProblem",
    "ReferenceType",
    "RiskFlag",
    "Rotated",
    "SanctionMatch",
    "Sanctions",
    "Sepa",
    "SourceRef",
    "Tier",
    "Trial",
    "Usage",
    "Validation",
    "Vop",
    "quota_of",
]
__version__ = "0.1.0"
