"""uvicorn's httptools protocol with the limits it lacks: the size and number of a
request's headers, and time limits for slow headers and slow bodies.

Without them one client could send an 8 MiB header, or 100 000 headers, or hold
hundreds of connections open by sending a header a minute. Over a limit the client
is answered 431 (headers too large), 414 (URL too long) or 408 (too slow), and the
connection is closed. The limits come from the settings (app/web/settings.py), read
once per process, so that every worker process of `canfield serve` has them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.web.settings import Settings


@dataclass(frozen=True, slots=True)
class Limits:
    max_header_bytes: int
    max_headers: int
    header_timeout: float
    body_timeout: float


@cache
def limits() -> Limits:
    settings = Settings()
    return Limits(
        settings.max_header_bytes,
        settings.max_headers,
        settings.header_timeout_seconds,
        settings.body_timeout_seconds,
    )


def _answer(status: int, reason: str) -> bytes:
    text = reason.encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(text)}\r\nconnection: close\r\n\r\n"
    ).encode() + text


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that refuses oversized headers and closes slow connections."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits()
        self._head_bytes = 0
        self._header_count = 0
        self._refused = False
        self._timer: asyncio.TimerHandle | None = None

    # -- timers ------------------------------------------------------------------

    def _arm(self, seconds: float, status: int, reason: str) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, self._too_slow, status, reason)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self, status: int, reason: str) -> None:
        self._timer = None
        if self.cycle is not None and not self.cycle.response_complete and self._in_body:
            # The app is reading the body: it sees the client leave.
            self.transport.close()
            return
        self._refuse(status, reason)

    @property
    def _in_body(self) -> bool:
        return self.cycle is not None and self.cycle.more_body

    def _refuse(self, status: int, reason: str) -> None:
        self._refused = True
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_answer(status, reason))
            self.transport.close()

    # -- the connection and the parser's callbacks -----------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.limits.header_timeout, 408, "Request Timeout")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self._refused:
            super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = 0
        self._header_count = 0
        self._arm(self.limits.header_timeout, 408, "Request Timeout")

    def on_url(self, url: bytes) -> None:
        if self._refused:
            return
        self._head_bytes += len(url)
        if self._head_bytes > self.limits.max_header_bytes:
            self._refuse(414, "URI Too Long")
            return
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._refused:
            return
        self._head_bytes += len(name) + len(value) + 4
        self._header_count += 1
        if (
            self._head_bytes > self.limits.max_header_bytes
            or self._header_count > self.limits.max_headers
        ):
            self._refuse(431, "Request Header Fields Too Large")
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self._refused:
            return
        self._arm(self.limits.body_timeout, 408, "Request Timeout")
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        self._disarm()
        super().on_message_complete()
