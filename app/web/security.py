"""Security basics for every response and every state-changing request (SPEC §8)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

# No inline script or style anywhere: everything comes from our own /static.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)

Origin = tuple[str, str, int]


def parse_origin(text: str) -> Origin | None:
    """(scheme, host, port) of an Origin header or a URL's origin; None if unreadable."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port or _DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname or port is None:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def own_origin(scope: Scope) -> Origin | None:
    """The origin this request was addressed to: its scheme and Host header."""
    scheme = str(scope.get("scheme", "http"))
    for name, value in scope["headers"]:
        if name == b"host":
            return parse_origin(f"{scheme}://{value.decode('latin-1')}")
    server = scope.get("server")
    if server:
        return parse_origin(f"{scheme}://{server[0]}:{server[1]}")
    return None


Refusal = Callable[[Request, int, str], Awaitable[Response]]


def scope_header(scope: Scope, wanted: bytes) -> bytes | None:
    """The first value of a request header (lower-case name) in an ASGI scope."""
    for name, value in scope["headers"]:
        if name == wanted:
            return bytes(value)
    return None


def _content_length(scope: Scope) -> int | None:
    value = scope_header(scope, b"content-length")
    try:
        return None if value is None else int(value)
    except ValueError:
        return None


def is_json(content_type: bytes) -> bool:
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (
        media.startswith(b"application/") and media.endswith(b"+json")
    )


def sends_a_non_json_body(scope: Scope) -> bool:
    """A body (of any length, or chunked) that is not declared application/json."""
    has_body = (_content_length(scope) or 0) > 0 or scope_header(scope, b"transfer-encoding")
    return bool(has_body) and not is_json(scope_header(scope, b"content-type") or b"")


class SecurityMiddleware:
    """Adds the security headers to every response; refuses with 403 a state-changing
    request whose Origin names another origin; refuses with 415 a body under /api/
    that is not application/json (a cross-site form cannot send JSON without the
    browser asking first); and refuses with 413 a body larger than `max_body_bytes`.

    A request without an Origin header (not a browser) is judged as usual; the JSON
    API's application/json rule and the SameSite cookie cover browsers that omit it.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_origins: Iterable[str] = (),
        max_body_bytes: int,
        refuse: Refusal,
        cross_site_message: Callable[[], str],
        too_large_message: Callable[[], str],
        not_json_message: Callable[[], str],
    ) -> None:
        """The messages are functions: each speaks the request's language when called."""
        self.app = app
        self.allowed = {origin for text in allowed_origins if (origin := parse_origin(text))}
        self.max_body_bytes = max_body_bytes
        self.refuse = refuse
        self.cross_site_message = cross_site_message
        self.too_large_message = too_large_message
        self.not_json_message = not_json_message

    def cross_site(self, scope: Scope) -> bool:
        for name, value in scope["headers"]:
            if name == b"origin":
                origin = parse_origin(value.decode("latin-1"))
                # "null" (an opaque origin: sandboxed frame, file:) is never ours.
                if origin is None:
                    return True
                return origin != own_origin(scope) and origin not in self.allowed
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        refusal = None
        unsafe = scope["method"] in UNSAFE_METHODS
        if unsafe and self.cross_site(scope):
            refusal = (403, self.cross_site_message())
        elif (_content_length(scope) or 0) > self.max_body_bytes:
            refusal = (413, self.too_large_message())
        elif unsafe and scope["path"].startswith("/api/") and sends_a_non_json_body(scope):
            refusal = (415, self.not_json_message())
        if refusal is not None:
            response = await self.refuse(Request(scope, receive), *refusal)
            await response(scope, receive, send_with_headers)
            return
        received = 0

        async def receive_limited() -> Message:
            # A body without Content-Length (chunked) is counted as it arrives; the
            # route's body reading turns the exception into the 413 answer.
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    raise HTTPException(413, self.too_large_message())
            return message

        await self.app(scope, receive_limited, send_with_headers)
