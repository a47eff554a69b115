"""The Host names the server answers to (TRUSTED_HOSTS): any other is refused with 400
before a route runs, so that links and redirects never name a host an attacker chose."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from app.i18n import gettext as _


def parse_hosts(text: str) -> list[str]:
    """`example.org, *.example.org` -> the patterns; `*` alone allows any host."""
    return [part.strip().lower() for part in text.split(",") if part.strip()]


def host_allowed(host: str, patterns: list[str]) -> bool:
    host = host.lower()
    if host.startswith("["):  # [::1]:8000
        host = host.split("]", 1)[0] + "]"
    else:
        host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    for pattern in patterns:
        if pattern == "*" or pattern == host:
            return True
        if pattern.startswith("*.") and host.endswith(pattern[1:]):
            return True
    return False


class TrustedHostMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: list[str],
        refuse: Callable[[Request, int, str], Awaitable[Response]],
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.refuse = refuse
        self.any = "*" in hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.any or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = ""
        for name, value in scope["headers"]:
            if name == b"host":
                host = value.decode("latin-1")
                break
        if host_allowed(host, self.hosts):
            await self.app(scope, receive, send)
            return
        response = await self.refuse(
            Request(scope), 400, _("This server does not answer to that host name.")
        )
        await response(scope, receive, send)
