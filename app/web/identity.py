"""Player identity: a signed cookie names an anonymous player (HttpOnly, SameSite=Lax,
Secure behind https). A player is given an id the first time a route asks for one."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from itsdangerous import BadSignature, Signer
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.store.games import new_id

COOKIE = "canfield_player"
MAX_AGE = 400 * 24 * 3600  # the longest that browsers keep a cookie
_COOKIE_PREFIX = COOKIE.encode() + b"="


class PlayerCookie:
    """Signs and reads the player cookie."""

    def __init__(self, secret_key: str) -> None:
        self._signer = Signer(secret_key, salt="canfield.player", digest_method=hashlib.sha256)
        # Checking a signature is a pure function of the value: remember recent answers.
        self._unsign = lru_cache(maxsize=4096)(self._unsign_uncached)

    def _unsign_uncached(self, value: bytes) -> str | None:
        try:
            return self._signer.unsign(value).decode()
        except (BadSignature, UnicodeDecodeError):
            return None

    def read(self, cookie_header: bytes) -> str | None:
        """The player id in a Cookie header, if its signature holds."""
        for part in cookie_header.split(b";"):
            part = part.strip()
            if part.startswith(_COOKIE_PREFIX):
                return self._unsign(part[len(_COOKIE_PREFIX) :])
        return None

    def set_cookie(self, player_id: str, *, secure: bool) -> bytes:
        value = self._signer.sign(player_id).decode()
        flags = "; Secure" if secure else ""
        return (
            f"{COOKIE}={value}; Path=/; Max-Age={MAX_AGE}; HttpOnly; SameSite=Lax{flags}"
        ).encode()


class IdentityMiddleware:
    """Puts the cookie's player id in `request.state.player_id`, and sends a cookie for
    a player that `player_id()` made during the request."""

    def __init__(self, app: ASGIApp, *, cookie: PlayerCookie) -> None:
        self.app = app
        self.cookie = cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state: dict[str, Any] = scope.setdefault("state", {})
        state["player_id"] = None
        for name, value in scope["headers"]:
            if name == b"cookie":
                state["player_id"] = self.cookie.read(value)
                break

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and (new := state.get("new_player")):
                secure = scope.get("scheme") == "https"
                headers = list(message.get("headers", ()))
                headers.append((b"set-cookie", self.cookie.set_cookie(new, secure=secure)))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def player_id(request: Request) -> str:
    """The requesting player's id; a new player gets one (and the cookie with it)."""
    found: str | None = getattr(request.state, "player_id", None)
    if found is None:
        found = new_id()
        request.state.player_id = found
        request.state.new_player = found
    return found
