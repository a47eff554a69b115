"""Which language a request is answered in (SPEC §11): `?lang=`, else the player's saved
choice (pages only: the JSON API follows `?lang=` and Accept-Language alone), else the best
match of Accept-Language, else English. The middleware speaks it for the whole request."""

from __future__ import annotations

from typing import cast
from urllib.parse import parse_qs, urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import i18n
from app.store import Store
from app.store.aio import AsyncStore
from app.web import messages
from app.web.identity import PlayerCookie


def supported(tag: str) -> str | None:
    """The language of a tag such as `pl`, `he-IL` or `RU`, if the app speaks it."""
    primary = tag.strip().split("-", 1)[0].split("_", 1)[0].lower()
    return primary if primary in i18n.LANGUAGES else None


def best_accepted(header: str) -> str | None:
    """The best language of an Accept-Language header (`he;q=0.9, pl-PL, *;q=0.1`) that the
    app speaks: highest weight first, the header's order among equals. A part that cannot
    be read is passed over, never an error."""
    choices: list[tuple[float, int, str]] = []
    for order, part in enumerate(header.split(",")):
        tag, *params = part.split(";")
        weight = 1.0
        for param in params:
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = -1.0
        language = supported(tag)
        if language is not None and 0 < weight <= 1:
            choices.append((-weight, order, language))
    return min(choices)[2] if choices else None


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return cast(bytes, value).decode("latin-1")
    return ""


def _lang_of(query: str) -> str | None:
    values = parse_qs(query).get("lang", [])
    return supported(values[-1]) if values else None


def _asked(scope: Scope) -> str | None:
    """The language of `?lang=`, if given and spoken; for an htmx request, that of the page
    it came from (htmx sends its address as HX-Current-URL), so a page opened with
    `?lang=` keeps its language through its moves."""
    query = cast(bytes, scope.get("query_string", b"")).decode("latin-1")
    return _lang_of(query) or _lang_of(urlsplit(_header(scope, b"hx-current-url")).query)


def _keeping_lang(name: bytes, value: bytes, lang: str) -> tuple[bytes, bytes]:
    """A redirect to a page of this site keeps the request's `?lang=` (`/` and `/deal/...`
    send the player on to the board)."""
    if name.lower() != b"location" or not value.startswith(b"/") or value.startswith(b"//"):
        return name, value
    if b"lang=" in value:
        return name, value
    joiner = b"&" if b"?" in value else b"?"
    return name, value + joiner + b"lang=" + lang.encode()


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def negotiated(scope: Scope, saved: str | None = None) -> str:
    """The language for a request: `?lang=`, `saved`, Accept-Language, English."""
    return (
        _asked(scope)
        or (saved if saved in i18n.LANGUAGES else None)
        or best_accepted(_header(scope, b"accept-language"))
        or i18n.DEFAULT
    )


def request_language(request: Request) -> str:
    """The language the middleware chose for `request` (or the headers', outside it)."""
    chosen = request.scope.get("state", {}).get("language")
    return chosen if isinstance(chosen, str) else negotiated(request.scope)


class LanguageMiddleware:
    """Sets the request's language (`i18n.current()`, `request.state.language`)."""

    def __init__(self, app: ASGIApp, *, cookie: PlayerCookie) -> None:
        self.app = app
        self.cookie = cookie

    async def _saved(self, scope: Scope) -> str | None:
        """The player's saved choice, for a page request by a known player."""
        path: str = scope["path"]
        if _is_api(path) or path.startswith("/static/"):
            return None
        player_id = self.cookie.read(_header(scope, b"cookie").encode("latin-1"))
        if player_id is None:
            return None
        store = cast(AsyncStore, scope["app"].state.store)
        prefs = await store.run(Store.prefs, player_id)
        return prefs.lang

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        saved = None if _asked(scope) else await self._saved(scope)
        language = negotiated(scope, saved)
        scope.setdefault("state", {})["language"] = language
        said = ((b"content-language", language.encode()), (b"vary", b"Accept-Language"))
        query = cast(bytes, scope.get("query_string", b"")).decode("latin-1")
        kept = _lang_of(query)

        async def send_saying_the_language(message: Message) -> None:
            # A cache must not give this answer to a reader of another language.
            if message["type"] == "http.response.start":
                headers = message.get("headers", ())
                if kept is not None:
                    headers = [_keeping_lang(name, value, kept) for name, value in headers]
                message["headers"] = [*headers, *said]
            await send(message)

        with i18n.using(language):
            await self.app(scope, receive, send_saying_the_language)


def saved_choice(lang: str) -> str | None:
    """The language switch's field as saved: a language the app speaks, or None for `auto`
    (follow the browser again); HTTPException 422 for any other."""
    if lang.strip().lower() == "auto":
        return None
    language = supported(lang)
    if language is None or len(lang.strip()) > 8:
        raise HTTPException(422, messages.unknown_language(lang))
    return language


def back_to_page(request: Request) -> Response:
    """After the switch: the page the form was on (same site, without `?lang=`), redrawn."""
    referer = urlsplit(request.headers.get("referer", ""))
    own = request.url
    same_site = (referer.scheme, referer.netloc) == (own.scheme, own.netloc)
    target = referer.path if same_site and referer.path.startswith("/") else "/"
    if request.headers.get("hx-request") == "true":
        return Response(status_code=204, headers={"HX-Location": target})
    return RedirectResponse(target, status_code=303)
