"""What the two clients share: the calls, when one is sent again, and how an answer is read.

The sync and the async client differ only in how they send and wait; every rule lives here, the
same as in the TypeScript client (mod97/client).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, cast

import httpx

from ._errors import Mod97Error
from ._types import Quota

T = TypeVar("T")

DEFAULT_URL = "http://127.0.0.1:3000"
DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 2
#: Spaces, tabs and line breaks around a key (the newline a .env file or a mounted secret leaves)
#: are dropped, as the TypeScript client's fetch drops them around any header value.
AROUND_KEY = " \t\r\n"
#: How many times a retry told 409 idempotency_in_progress waits for the first request's answer.
IN_PROGRESS_WAITS = 10

# When a call may be sent again by itself:
# - read: free and without effect (usage): after any connection failure, time-out or 503;
# - metered: data calls cost quota, and one cut off in flight, or answered 503 while the
#   service's store was failing, may have been counted: only when it provably never reached the
#   service (the connection was never made). A metered POST carries an Idempotency-Key, so it is
#   also sent again once, with the same key, after any connection failure, time-out or 503: the
#   service answers a repeat with the first answer, uncharged;
# - write: keys routes that change state: the same as metered, never on an answer.
Safety = Literal["read", "metered", "write"]


@dataclass(frozen=True)
class Call(Generic[T]):
    """One route called: ``T`` is the answer's type, for the caller (never checked at run time)."""

    method: Literal["GET", "POST"]
    path: str
    safety: Safety
    body: Any = None
    #: Statuses that are answers, not refusals.
    ok: tuple[int, ...] = (200,)
    #: False for a route that uses no key (generate): a stale key in MOD97_API_KEY would have it refused.
    sends_key: bool = True


def settings(base_url: str | None, api_key: str | None) -> tuple[str, str | None]:
    """The service and the key: given, else MOD97_URL and MOD97_API_KEY; an empty key sends none."""
    url = (base_url if base_url is not None else os.environ.get("MOD97_URL") or DEFAULT_URL).rstrip("/")
    key = api_key if api_key is not None else os.environ.get("MOD97_API_KEY")
    return url, (key or "").strip(AROUND_KEY) or None


def refuse_unsendable(api_key: str | None) -> None:
    """Raises the refusal of a key that is not visible ASCII, before anything is sent.

    A header cannot carry a line break or a control character: httpx would fail with an error
    quoting the whole ``Bearer`` value (the secret in a traceback) that reads as a network fault,
    after retries. A space or a non-ASCII letter could be sent, but no key holds one. The key is
    not shown. The words are the ``mod97`` command's and the TypeScript client's.
    """
    if api_key is None or re.fullmatch(r"[\x21-\x7e]*", api_key):
        return
    if re.search(r"[\r\n]", api_key):
        what = "a line break"
    elif re.match(r"bearer[ \t]", api_key, re.IGNORECASE):
        what = "the word Bearer before the key (the client adds it)"
    elif re.search(r"[ \t]", api_key):
        what = "a space or tab"
    else:
        what = "a character an HTTP header cannot carry"
    raise Mod97Error(
        0,
        "invalid_api_key",
        f"The API key is malformed: it holds {what}, so it cannot be sent (its value is not shown). "
        "Give the key alone, as it was shown: ifk_ and 64 hexadecimal characters. Nothing was sent.",
    )


def headers_for(call: Call[Any], api_key: str | None, idempotency_key: str | None) -> dict[str, str]:
    headers = {"accept": "application/json"}
    if idempotency_key:
        headers["idempotency-key"] = idempotency_key
    if api_key and call.sends_key:
        headers["authorization"] = f"Bearer {api_key}"
    if call.body is not None:
        headers["content-type"] = "application/json"
    return headers


def content_of(call: Call[Any]) -> bytes | None:
    return None if call.body is None else json.dumps(call.body, separators=(",", ":")).encode()


@dataclass
class Attempts:
    """The retry rules of one call, asked after each attempt: wait this long and send again, or not."""

    call: Call[Any]
    retries: int
    #: The API key, left out of the words of a failure should they quote it.
    api_key: str | None
    #: One key for every attempt of this call: the service charges it once, whatever reaches it.
    idempotency_key: str | None = field(init=False)
    attempt: int = 0
    resent: bool = False
    waits: int = 0

    def __post_init__(self) -> None:
        if self.call.sends_key:
            refuse_unsendable(self.api_key)  # before the first attempt: nothing sent, nothing retried
        metered_post = self.call.method == "POST" and self.call.safety == "metered"
        self.idempotency_key = str(uuid.uuid4()) if metered_post else None

    @property
    def _last(self) -> bool:
        return self.attempt >= self.retries

    def after_failure(self, error: httpx.HTTPError) -> float:
        """The pause before the next attempt, or raises the typed error of this failure."""
        never_sent = isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout))
        retry = (
            self.call.safety == "read"
            or never_sent
            or (self.idempotency_key is not None and not self.resent)
        )
        if self._last or not retry:
            # chained to httpx's error for its trace, unless that error's words quote the key
            quoted = self.api_key is not None and self.api_key in str(error)
            raise failure(error, self.api_key) from (None if quoted else error)
        self.resent = self.resent or (self.idempotency_key is not None and not never_sent)
        pause = backoff(self.attempt)
        self.attempt += 1
        return pause

    def after_answer(self, response: httpx.Response) -> float | None:
        """The pause before the next attempt, or None when this answer is the one to read."""
        status = response.status_code
        may_resend = self.call.safety == "read" or (self.idempotency_key is not None and not self.resent)
        if status == 503 and not self._last and may_resend:
            self.resent = self.idempotency_key is not None
            pause = backoff(self.attempt, response.headers.get("retry-after"))
            self.attempt += 1
            return pause
        # The repeat met the first request still being answered: wait for that answer rather than fail.
        if (
            status == 409
            and self.resent
            and self.waits < IN_PROGRESS_WAITS
            and "idempotency_in_progress" in response.text
        ):
            self.waits += 1
            return backoff(0, response.headers.get("retry-after"))
        return None


def backoff(attempt: int, retry_after: str | None = None) -> float:
    """250 ms, then 1 s (or what Retry-After asks, up to 10 s), in seconds."""
    asked = retry_after_seconds(retry_after)
    return min(asked, 10.0) if asked else 0.25 * 4.0**attempt


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` in seconds, the form the service sends; None when absent or in another form."""
    return float(value) if value is not None and re.fullmatch(r"[0-9]+(\.[0-9]+)?", value) else None


def failure(error: httpx.HTTPError, api_key: str | None) -> Mod97Error:
    """No HTTP answer: status 0, code ``timeout`` or ``connection_failed``; never the key in its words."""
    where = ""
    try:
        url = error.request.url
        where = f" at {url.scheme}://{url.netloc.decode('ascii')}"
    except RuntimeError:  # an error raised before any request was made has none
        pass
    if isinstance(error, httpx.TimeoutException):
        return Mod97Error(0, "timeout", f"The service{where} did not answer in time.")
    detail = str(error) or type(error).__name__
    if api_key:
        detail = detail.replace(api_key, "[API key]")
    return Mod97Error(0, "connection_failed", f"Could not reach the service{where}: {detail}")


def quota_from(headers: httpx.Headers) -> Quota | None:
    used, limit = headers.get("x-quota-used"), headers.get("x-quota-limit")
    remaining, month = headers.get("x-quota-remaining"), headers.get("x-quota-month")
    if used is None or limit is None or remaining is None or month is None:
        return None
    try:
        quota: Quota = {"used": int(used), "limit": int(limit), "remaining": int(remaining), "month": month}
    except ValueError:
        return None
    if headers.get("x-quota-exhausted") == "true":
        quota["exhausted"] = True
    return quota


class Answer(dict[str, Any]):
    """An answer as received (a plain JSON object), with its quota headers beside it."""

    quota: Quota | None = None


def answer(call: Call[T], response: httpx.Response) -> T:
    """The answer's JSON object, or raises the refusal as a Mod97Error."""
    quota = quota_from(response.headers)
    retry_after = retry_after_seconds(response.headers.get("retry-after"))
    text = response.text
    try:
        body: Any = json.loads(text)
    except ValueError:
        body = None
    if response.status_code not in call.ok or not isinstance(body, dict):
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            message = body.get("message")
            words = message if isinstance(message, str) else ""
            raise Mod97Error(response.status_code, body["error"], words, body, quota, retry_after)
        what = "a body that is not a JSON object" if text else "no body"
        raise Mod97Error(
            response.status_code,
            "invalid_response",
            f"The service answered {response.status_code} with {what}.",
            quota=quota,
            retry_after=retry_after,
        )
    result = Answer(body)
    result.quota = quota
    return cast(T, result)  # the route's schema, as the service declares it
