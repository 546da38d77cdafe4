"""Retries only where they are safe, through stand-ins that fail as a service or a proxy would;
and a key no header can carry, never sent at all."""

from __future__ import annotations

import asyncio
import pickle
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from conftest import IBAN, quota

from mod97 import AsyncMod97, Mod97, Mod97Error
from mod97._transport import backoff


class Front:
    """A server on 127.0.0.1 whose `handle(request, n)` answers (or not); it notes what it got."""

    def __init__(self, handle: Callable[[Request, int], None], port: int = 0) -> None:
        self.seen: list[tuple[str, str, str | None]] = []
        self._arrived = threading.Condition()
        front = self

        class Handler(BaseHTTPRequestHandler):
            def do_any(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                with front._arrived:
                    front.seen.append((self.command, self.path, self.headers.get("idempotency-key")))
                    n = len(front.seen)
                    front._arrived.notify_all()
                handle(Request(self, body), n)

            do_GET = do_POST = do_any

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def requests(self) -> int:
        return len(self.seen)

    def requests_once_arrived(self, n: int) -> int:
        """The count once `n` requests arrived (or 10 s passed). A request the client gave up on
        may still be on its way to the handler's thread: on a busy machine, past the timeout."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.seen) >= n, timeout=10)
            return len(self.seen)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Request:
    def __init__(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        self.handler, self.body = handler, body

    def reply(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.handler.send_response(status)
        for name, value in (headers or {"content-type": "application/json"}).items():
            self.handler.send_header(name, value)
        self.handler.send_header("content-length", str(len(body)))
        self.handler.end_headers()
        self.handler.wfile.write(body)

    def forward(self, url: str) -> httpx.Response:
        """The same request, sent on to the real service."""
        skip = {"host", "content-length", "connection"}
        headers = {k: v for k, v in self.handler.headers.items() if k.lower() not in skip}
        return httpx.request(self.handler.command, url + self.handler.path, headers=headers, content=self.body)

    def relay(self, answer: httpx.Response) -> None:
        hop = {"content-length", "transfer-encoding", "connection"}
        keep = {k: v for k, v in answer.headers.items() if k.lower() not in hop}
        self.reply(answer.status_code, answer.content, keep)

    def cut(self) -> None:
        """Closes the connection without an answer, as a proxy that lost it would."""
        self.handler.close_connection = True
        self.handler.connection.shutdown(socket.SHUT_RDWR)


UNAVAILABLE = b'{"error":"unavailable","message":"Try again."}'


@pytest.fixture
def fronts() -> Iterator[Callable[..., Front]]:
    opened: list[Front] = []

    def open_front(handle: Callable[[Request, int], None], port: int = 0) -> Front:
        opened.append(Front(handle, port))
        return opened[-1]

    yield open_front
    for front in opened:
        front.close()


def test_a_free_read_answered_503_is_tried_again_a_metered_get_is_not(
    fronts: Callable[..., Front], url: str, key: str
) -> None:
    seen: set[str] = set()

    def handle(request: Request, n: int) -> None:
        if request.handler.path not in seen:
            seen.add(request.handler.path)
            return request.reply(503, UNAVAILABLE, {"content-type": "application/json", "retry-after": "0"})
        request.relay(request.forward(url))

    front = fronts(handle)
    with Mod97(base_url=front.url, api_key=key) as client:
        assert client.usage()["used"] == 0
        assert front.requests == 2, "usage: refused once, then answered"
        with pytest.raises(Mod97Error) as refused:
            client.bic("COBADEFF")
        assert (refused.value.status, refused.value.code) == (503, "unavailable")
        assert front.requests == 3, "the lookup was sent once"


def test_a_metered_get_that_timed_out_is_not_sent_again_a_metered_post_once_more_with_its_key(
    fronts: Callable[..., Front],
) -> None:
    front = fronts(lambda request, n: time.sleep(1.5))
    with Mod97(base_url=front.url, api_key="", timeout=0.2) as slow:
        with pytest.raises(Mod97Error) as timed_out:
            slow.bic("COBADEFF")
        assert (timed_out.value.status, timed_out.value.code) == (0, "timeout")
        assert front.requests_once_arrived(1) == 1
        with pytest.raises(Mod97Error):
            slow.validate(IBAN)
        assert front.requests_once_arrived(3) == 3, "a metered POST is tried twice"
        (_, _, none), (_, _, first), (_, _, second) = front.seen
        assert none is None, "a GET carries no Idempotency-Key"
        assert first is not None and len(first) == 36
        assert second == first, "the retry carries the same key"
        with pytest.raises(Mod97Error):
            slow.usage()
        assert front.requests_once_arrived(6) == 6, "a free read is tried three times"


@pytest.mark.engines
def test_a_metered_post_whose_answer_was_lost_is_replayed_and_charged_once(
    fronts: Callable[..., Front], url: str, key: str
) -> None:
    def handle(request: Request, n: int) -> None:
        answer = request.forward(url)  # the service answers and charges ...
        if n == 1:
            return request.cut()  # ... but the client never sees that answer
        request.relay(answer)

    front = fronts(handle)
    with Mod97(base_url=front.url, api_key=key) as client:
        answer = client.batch([IBAN, "GB82WEST12345698765432"])
    assert answer["count"] == 2
    assert front.requests == 2
    assert front.seen[1][2] == front.seen[0][2], "the retry carries the same Idempotency-Key"
    assert quota(answer)["used"] == 2, "two IBANs, charged once"
    with Mod97(base_url=url, api_key=key) as direct:
        assert direct.usage()["used"] == 2


@pytest.mark.engines
def test_async_a_lost_answer_is_replayed_and_charged_once(fronts: Callable[..., Front], url: str, key: str) -> None:
    def handle(request: Request, n: int) -> None:
        answer = request.forward(url)
        if n == 1:
            return request.cut()
        request.relay(answer)

    front = fronts(handle)

    async def scenario() -> None:
        async with AsyncMod97(base_url=front.url, api_key=key) as client:
            answer = await client.validate(IBAN)
        assert answer["valid"] is True
        assert quota(answer)["used"] == 1

    asyncio.run(scenario())
    assert front.requests == 2 and front.seen[1][2] == front.seen[0][2]


def test_a_repeat_that_meets_the_first_still_in_progress_waits_for_its_answer(
    fronts: Callable[..., Front], url: str, key: str
) -> None:
    in_progress = b'{"error":"idempotency_in_progress","message":"Still answering the first."}'

    def handle(request: Request, n: int) -> None:
        if n == 1:
            request.forward(url)
            return request.cut()
        if n in (2, 3):  # as the service answers while the first request is still being served
            return request.reply(409, in_progress, {"content-type": "application/json", "retry-after": "0"})
        request.relay(request.forward(url))

    front = fronts(handle)
    with Mod97(base_url=front.url, api_key=key) as client:
        answer = client.extract(f"Pay to {IBAN}.")
    assert answer["count"] == 1
    assert front.requests == 4
    assert len({idempotency_key for _, _, idempotency_key in front.seen}) == 1, "one key throughout"
    assert quota(answer)["used"] == 1, "charged once"


def test_a_metered_post_answered_503_is_sent_once_more_honouring_retry_after_and_no_more(
    fronts: Callable[..., Front], url: str, key: str
) -> None:
    def handle(request: Request, n: int) -> None:
        if n == 1 or n >= 3:
            return request.reply(503, b'{"error":"storage_unavailable","message":"Try again."}', {
                "content-type": "application/json",
                "retry-after": "1",
            })
        request.relay(request.forward(url))

    front = fronts(handle)
    with Mod97(base_url=front.url, api_key=key) as client:
        started = time.monotonic()
        assert quota(client.validate(IBAN))["used"] == 1
        assert time.monotonic() - started >= 1.0, "waited the second Retry-After asked for"
        assert front.seen[1][2] == front.seen[0][2]
        with pytest.raises(Mod97Error) as refused:
            client.validate(IBAN)
        assert (refused.value.status, refused.value.code) == (503, "storage_unavailable")
    assert front.requests == 4, "the second call: sent, then retried once"
    assert front.seen[2][2] != front.seen[0][2], "each call has a key of its own"
    assert front.seen[3][2] == front.seen[2][2]


def test_a_refusal_carries_its_retry_after_in_seconds(fronts: Callable[..., Front]) -> None:
    refusals = {
        "/v1/keys/generate": (429, "key_creation_limit", "3600"),
        "/v1/bic/COBADEFF": (503, "storage_unavailable", "5"),
        "/v1/iban/validate": (409, "idempotency_in_progress", "1"),
        "/v1/ch/clearing/100": (404, "clearing_not_found", None),
    }

    def handle(request: Request, n: int) -> None:
        status, code, retry_after = refusals[request.handler.path]
        headers = {"content-type": "application/json"} | ({"retry-after": retry_after} if retry_after else {})
        request.reply(status, f'{{"error":"{code}","message":"Not now."}}'.encode(), headers)

    front = fronts(handle)
    with Mod97(base_url=front.url, api_key="") as client:
        calls: list[Callable[[], object]] = [
            client.generate_key,
            lambda: client.bic("COBADEFF"),
            lambda: client.validate(IBAN),
            lambda: client.clearing("100"),
        ]
        seen: list[tuple[int, str, float | None]] = []
        for call in calls:
            with pytest.raises(Mod97Error) as refused:
                call()
            seen.append((refused.value.status, refused.value.code, refused.value.retry_after))
    assert seen == [
        (429, "key_creation_limit", 3600.0),
        (503, "storage_unavailable", 5.0),
        (409, "idempotency_in_progress", 1.0),
        (404, "clearing_not_found", None),
    ]
    assert pickle.loads(pickle.dumps(refused.value)).retry_after is None
    with unreachable_port() as port, Mod97(base_url=f"http://127.0.0.1:{port}", api_key="", retries=0) as nobody:
        with pytest.raises(Mod97Error) as unreached:
            nobody.bic("COBADEFF")
    assert (unreached.value.code, unreached.value.retry_after) == ("connection_failed", None)


def test_retry_after_is_read_in_seconds_up_to_ten_else_250_ms_then_1_s() -> None:
    assert [backoff(0), backoff(1)] == [0.25, 1.0]
    assert [backoff(0, "3"), backoff(1, "2.5"), backoff(0, "600")] == [3.0, 2.5, 10.0]
    assert [backoff(0, "soon"), backoff(0, "0"), backoff(1, "nan")] == [0.25, 0.25, 1.0]


@contextmanager
def unreachable_port() -> Iterator[int]:
    """A port held bound but not listening: a connection to it is refused, and no other server of a
    test run in parallel can take it meanwhile (as it can a port merely found free)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        port: int = held.getsockname()[1]
        yield port


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_a_metered_call_whose_connection_was_refused_is_sent_again_and_counted_once(
    fronts: Callable[..., Front], url: str, key: str
) -> None:
    port = free_port()
    # nobody listens yet; a forwarder to the service opens on the port 100 ms later
    timer = threading.Timer(0.1, lambda: fronts(lambda request, n: request.relay(request.forward(url)), port))
    timer.start()
    try:
        with Mod97(base_url=f"http://127.0.0.1:{port}", api_key=key) as client:
            answer = client.validate(IBAN)
    finally:
        timer.join()
    assert answer["valid"] is True
    assert quota(answer)["used"] == 1, "counted once"
    with unreachable_port() as closed, Mod97(base_url=f"http://127.0.0.1:{closed}", api_key="", retries=0) as nobody:
        with pytest.raises(Mod97Error) as refused:
            nobody.validate(IBAN)
    assert (refused.value.status, refused.value.code) == (0, "connection_failed")
    assert f"Could not reach the service at http://127.0.0.1:{closed}: " in str(refused.value)


def test_an_answer_that_is_not_json_is_a_typed_error(fronts: Callable[..., Front]) -> None:
    front = fronts(lambda request, n: request.reply(502, b"<html>Bad gateway</html>", {"content-type": "text/html"}))
    with Mod97(base_url=front.url, api_key="") as client:
        with pytest.raises(Mod97Error) as refused:
            client.bic("COBADEFF")
    assert (refused.value.status, refused.value.code) == (502, "invalid_response")
    assert "not a JSON object" in refused.value.message


KEY = "ifk_" + "d32c" * 16


def inside(what: str) -> str:
    return KEY[:30] + what + KEY[30:]


def test_spaces_tabs_and_line_breaks_around_the_key_are_dropped(
    fronts: Callable[..., Front], monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[str | None] = []

    def handle(request: Request, n: int) -> None:
        sent.append(request.handler.headers.get("authorization"))
        request.reply(200, b"{}")

    front = fronts(handle)
    for api_key in (KEY + "\n", KEY + "\r\n", " \t" + KEY + " "):
        with Mod97(base_url=front.url, api_key=api_key) as client:
            client.usage()
    monkeypatch.setenv("MOD97_API_KEY", KEY + "\n")  # a secret file read into the environment
    with Mod97(base_url=front.url) as client:
        client.usage()
    assert sent == [f"Bearer {KEY}"] * 4


@pytest.mark.parametrize(
    ("api_key", "what"),
    [
        (inside("\r\n"), "a line break"),
        (inside("\n"), "a line break"),
        (inside("\0"), "a character an HTTP header cannot carry"),
        (inside("é"), "a character an HTTP header cannot carry"),
        (inside(" "), "a space or tab"),
        (f"Bearer {KEY}", "the word Bearer before the key (the client adds it)"),
    ],
)
def test_any_other_character_but_visible_ascii_is_refused_before_anything_is_sent(
    fronts: Callable[..., Front], api_key: str, what: str
) -> None:
    front = fronts(lambda request, n: request.reply(200, b"{}"))
    refusals: list[Mod97Error] = []
    with Mod97(base_url=front.url, api_key=api_key) as client:
        calls: list[Callable[[], object]] = [client.usage, lambda: client.validate(IBAN)]
        for call in calls:
            with pytest.raises(Mod97Error) as refused:
                call()
            refusals.append(refused.value)

    async def in_async() -> None:
        async with AsyncMod97(base_url=front.url, api_key=api_key) as client:
            with pytest.raises(Mod97Error) as refused:
                await client.usage()
            refusals.append(refused.value)

    asyncio.run(in_async())
    for refusal in refusals:
        assert (refusal.status, refusal.code) == (0, "invalid_api_key")
        told = f"The API key is malformed: it holds {what}, so it cannot be sent (its value is not shown)."
        assert told in refusal.message
        assert "d32c" not in "".join(traceback.format_exception(refusal)), "the key is never shown"
    assert front.requests == 0, "nothing was sent, nor sent again"


def test_a_failure_whose_words_quote_the_key_is_reported_without_it() -> None:
    def quoting(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"cannot send {request.headers['authorization']}", request=request)

    transport = httpx.MockTransport(quoting)
    with Mod97(base_url="http://127.0.0.1:9", api_key=KEY, retries=0, transport=transport) as client:
        with pytest.raises(Mod97Error) as refused:
            client.usage()
    assert (refused.value.status, refused.value.code) == (0, "connection_failed")
    assert refused.value.message.endswith("cannot send Bearer [API key]")
    assert "d32c" not in "".join(traceback.format_exception(refused.value)), "nor in the error it was chained to"
