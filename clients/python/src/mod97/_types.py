"""The answers of the service, field by field as its OpenAPI document declares them.

Plain dictionaries at run time (the JSON as received), typed for mypy and editors. Fields the
service may add later are kept in the dictionary; only the ones listed here are typed.
tests/test_types.py holds each of these to the schemas the running service publishes.
"""

from typing import Literal, NotRequired, TypedDict

# ----- shared blocks -------------------------------------------------------------------------


class Attribution(TypedDict):
    text: str
    url: str
    note: str


class SourceRef(TypedDict):
    name: str
    as_of: str | None
    as_of_note: NotRequired[str]


class BankByCode(TypedDict):
    bic: str | None
    name: str | None
    city: str | None
    source: str
    as_of: str | None


class Vop(TypedDict):
    participant: bool
    status: str | None
    roles: list[str]


class Sepa(TypedDict):
    country: str
    member: bool
    schemes: list[str]
    basis: Literal["country", "epc_register"]
    bic: str | None
    vop: Vop | None
    source: str
    as_of: str | None
    as_of_note: NotRequired[str]


# ----- IBANs ----------------------------------------------------------------------------------


class Country(TypedDict):
    code: str
    name: str


class Bban(TypedDict):
    bank_code: str | None
    branch_code: str | None
    account_number: str | None


class IbanError(TypedDict):
    code: str
    message: str
    parent: NotRequired[str]
    expected_length: NotRequired[int]
    length: NotRequired[int]


class IbanClearing(TypedDict):
    iid: str
    name: str | None
    bic: str | None
    sic: bool | None
    eurosic: bool | None
    instant_payments: bool | None
    qr_iid: bool
    successor_iid: str | None
    valid_on: str | None
    source: str


class BicCheck(TypedDict):
    bic: str
    matches: bool | None
    expected: list[str]


class GetKey(TypedDict):
    method: str
    url: str


class Trial(TypedDict):
    calls_left_today: int
    limit: int
    day: str
    resets_at: str
    get_key: GetKey


NationalCheck = Literal["passed", "failed", "not_checked", "not_implemented", "unknown_bank"]


class IbanResult(TypedDict):
    """One IBAN checked: the validate answer, and each item of a batch."""

    iban: str
    formatted: str
    valid: bool
    country: Country | None
    check_digits: str | None
    bban: Bban | None
    qr_iban: bool
    errors: list[IbanError]
    suggestions: list[str]
    bank: BankByCode | None
    sepa: Sepa | None
    clearing: NotRequired[IbanClearing | None]
    national_check: NotRequired[NationalCheck]
    bic_check: NotRequired[BicCheck]
    data_version: str


class SuggestedIban(TypedDict):
    """A suggestion as a person reads it: its print form and the bank behind it."""

    iban: str
    formatted: str
    bank: BankByCode | None


class Validation(IbanResult):
    suggestion_details: NotRequired[list[SuggestedIban]]
    """The entries of `suggestions`, in the same order, with print form and bank (validate only)."""
    attribution: NotRequired[Attribution]
    trial: NotRequired[Trial]


class Batch(TypedDict):
    count: int
    valid: int
    invalid: int
    by_country: dict[str, int]
    results: list[IbanResult]
    attribution: NotRequired[Attribution]


class BatchItem(TypedDict):
    """An IBAN with the BIC it came with, for `batch` (the answer then carries `bic_check`)."""

    iban: str
    bic: NotRequired[str]


class AccountParts(TypedDict):
    """A domestic account number, for `from_account`."""

    country: str
    bank_code: NotRequired[str]
    branch_code: NotRequired[str]
    account: str


class ConstructedFrom(TypedDict):
    country: str
    bank_code: str | None
    branch_code: str | None
    account: str
    national_check_digits: str | None


class IbanRule(TypedDict):
    rule: str | None
    standard: bool | None
    message: str


class FromAccount(IbanResult):
    constructed_from: ConstructedFrom
    iban_rule: NotRequired[IbanRule]
    attribution: NotRequired[Attribution]


class OcrReading(TypedDict):
    at: int
    found: str
    read_as: str


class OcrRepair(OcrReading):
    """The first character read as its look-alike (`at`, `found`, `read_as`), and every one."""

    iban: str
    readings: list[OcrReading]


class ExtractItem(IbanResult):
    match: str
    start: int
    end: int
    ocr_repaired: bool
    ocr_repair: NotRequired[OcrRepair]


class Extract(TypedDict):
    count: int
    truncated: bool
    items: list[ExtractItem]
    attribution: NotRequired[Attribution]


# ----- banks, compliance, Swiss clearing ------------------------------------------------------


class BicCountry(TypedDict):
    code: str
    name: str | None


class Branch(TypedDict):
    code: str
    primary_office: bool


class Lei(TypedDict):
    lei: str
    source: str
    as_of: str | None


class Bic(TypedDict):
    bic: str
    bic8: str
    bic11: str
    match: Literal["exact", "institution"]
    name: str | None
    city: str | None
    address: str | None
    postcode: str | None
    country: BicCountry
    branch: Branch
    lei: Lei | None
    test_bic: bool
    sources: list[SourceRef]
    sepa: Sepa
    attribution: NotRequired[Attribution]


class ComplianceSubject(TypedDict):
    iban: str | None
    iban_valid: bool | None
    bic: str | None
    country: str | None
    bank: BankByCode | None


class SanctionMatch(TypedDict):
    bic: str
    name: str
    programs: list[str]
    reference: str
    list: str
    as_of: str
    match: Literal["exact", "institution"]


class Sanctions(TypedDict):
    screened: bool
    stale: bool
    explanation: str
    bic: str | None
    lists: list[SourceRef]
    matches: list[SanctionMatch]


class CountryList(TypedDict):
    id: Literal["fatf_call_for_action", "fatf_increased_monitoring", "eu_high_risk_third_countries"]
    title: str
    listed: bool | None
    source: str
    as_of: str


class RiskFlag(TypedDict):
    code: str
    weight: int
    detail: str
    source: str
    as_of: str | None


class Compliance(TypedDict):
    subject: ComplianceSubject
    sanctions: Sanctions
    country_lists: list[CountryList]
    sepa: Sepa | None
    score: int
    level: Literal["low", "medium", "high"]
    flags: list[RiskFlag]
    disclaimer: str
    attribution: NotRequired[Attribution]


class ClearingAddress(TypedDict):
    street: str | None
    building_number: str | None
    postal_code: str | None
    city: str | None
    country: str | None


class ClearingSuccessor(TypedDict):
    iid: str
    name: str | None
    bic: str | None


class Clearing(TypedDict):
    iid: str
    valid_on: str | None
    concatenated: bool
    successor_iid: str | None
    sic_iid: str | None
    headquarters_iid: str | None
    iid_type: Literal["headquarters", "main_branch", "branch", "qr_iid"] | None
    qr_iid_allocation: str | None
    name: str | None
    address: ClearingAddress
    bic: str | None
    sic_participation: bool | None
    rtgs_customer_payments_chf: bool | None
    instant_payments_chf: bool | None
    eurosic_participation: bool | None
    lsv_bdd_chf: bool | None
    lsv_bdd_eur: bool | None
    successor: ClearingSuccessor | None
    source: str
    as_of: str | None
    attribution: NotRequired[Attribution]


# ----- keys -----------------------------------------------------------------------------------

Tier = Literal["anonymous", "email", "claimed", "pro", "credits"]
Basis = Literal["monthly", "lifetime", "credits"]


class KeyCreated(TypedDict):
    api_key: str
    key_prefix: str
    tier: Tier
    basis: Basis
    monthly_limit: int
    claim_url: NotRequired[str]
    message: str
    terms_url: str
    notice: NotRequired[str]
    email: NotRequired[str]


class ClaimOffer(TypedDict):
    url: str
    raises_limit_to: int
    first_call_made: bool
    """The key has served a call: a claim by mailed code needs it."""
    methods: list[str]
    paid_so_far_usd: float
    paid_needed_usd: float


class Usage(TypedDict):
    used: int
    limit: int
    remaining: int
    month: NotRequired[str]
    day: NotRequired[str]
    key_prefix: NotRequired[str]
    basis: Literal["monthly", "lifetime", "credits", "daily"]
    tier: Literal["anonymous", "email", "claimed", "pro", "credits", "trial"]
    claim: NotRequired[ClaimOffer]


class DayUsed(TypedDict):
    day: str
    used: int


# `from` is a Python keyword, so this one is written in the functional form.
DailyUsage = TypedDict(
    "DailyUsage",
    {"key_prefix": str, "basis": str, "from": str, "to": str, "total": int, "days": list[DayUsed]},
)


class Rotated(TypedDict):
    api_key: str
    key_prefix: str
    previous_key_prefix: str
    tier: Tier
    basis: Basis
    monthly_limit: int
    message: str


class CodeSent(TypedDict):
    status: Literal["code_sent"]
    key_prefix: str
    expires_in_minutes: int
    message: str


class Claimed(TypedDict):
    claimed: Literal[True]
    tier: str
    basis: str
    key_prefix: str
    monthly_limit: int
    limit: int
    used: int
    remaining: int
    month: str


# ----- payment references, the payment check and payment QR codes -----------------------------

ReferenceType = Literal["rf", "qrr", "be_ogm", "fi", "no_kid", "se_ocr"]


class ReferenceProblem(TypedDict):
    code: str
    message: str
    candidates: NotRequired[list[str]]
    """reference_type_unknown only: the types whose characters, length and check hold."""


class ReferenceResult(TypedDict):
    """A structured payment reference judged: its electronic and print forms, type and faults."""

    reference: str
    type: ReferenceType | None
    valid: bool
    formatted: str
    errors: list[ReferenceProblem]
    suggestions: list[str]


class Reference(ReferenceResult):
    """What `validate_reference` answers, and `create_reference` for the reference it made."""

    attribution: NotRequired[Attribution]


class Address(TypedDict):
    """A structured postal address (a Swiss QR-bill's address type S); the service says what is missing."""

    street: NotRequired[str]
    building_number: NotRequired[str]
    postal_code: NotRequired[str]
    town: NotRequired[str]
    country: NotRequired[str]


class Creditor(TypedDict):
    iban: str
    bic: NotRequired[str]
    name: str
    address: NotRequired[Address]


class Debtor(TypedDict):
    name: str
    address: NotRequired[Address]


QrStandard = Literal["epc", "swiss_qr_bill"]


class PaymentFields(TypedDict):
    """A payment as an invoice states it: what `check_payment` checks."""

    creditor: Creditor
    amount: NotRequired[str | float]
    currency: str
    reference: NotRequired[str]
    remittance: NotRequired[str]
    debtor: NotRequired[Debtor]
    scheme: NotRequired[Literal["sct", "swiss_qr_bill"]]


class Payment(PaymentFields):
    """A payment, for `check_payment` and `payment_qr` (`standard`: the code to draw)."""

    standard: NotRequired[QrStandard]


class PaymentQrFields(PaymentFields):
    """The payment a code carries, as `payment_qr` takes it, with its standard."""

    standard: QrStandard


class PaymentProblem(TypedDict):
    code: str
    field: str
    message: str


class PaymentCheckResult(TypedDict):
    valid: bool
    """No errors (warnings allowed)."""
    scheme: Literal["sct", "swiss_qr_bill"]
    iban: IbanResult
    reference: ReferenceResult | None
    errors: list[PaymentProblem]
    warnings: list[PaymentProblem]


class PaymentCheck(PaymentCheckResult):
    """What `check_payment` answers."""

    attribution: NotRequired[Attribution]


class QrImage(TypedDict):
    format: Literal["svg", "png"]
    media_type: Literal["image/svg+xml", "image/png"]
    data: str
    """The SVG text, or the PNG in base64."""


class PaymentQr(TypedDict):
    standard: QrStandard
    payload: str
    image: NotRequired[QrImage]
    warnings: list[PaymentProblem]
    """The check's warnings, which do not stop the code (reference_and_remittance: the text was left out)."""
    attribution: NotRequired[Attribution]


class PaymentQrRead(TypedDict):
    standard: QrStandard
    payload: str
    fields: PaymentQrFields
    check: PaymentCheckResult
    attribution: NotRequired[Attribution]


# ----- errors ---------------------------------------------------------------------------------


class ErrorBody(TypedDict):
    """Every refusal: a machine code and a sentence for people (and, per code, more fields)."""

    error: str
    message: str


class Quota(TypedDict):
    """The `X-Quota-*` headers of an answer: the key's balance after this call (and any refund)."""

    used: int
    limit: int
    remaining: int
    month: str
    """`YYYY-MM`, the current UTC month."""
    exhausted: NotRequired[Literal[True]]
    """Present (True) only on a quota-exhausted 402."""
