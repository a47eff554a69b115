"""Every error answer: JSON `{"detail": "..."}` under /api, an HTML message or page elsewhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app import i18n
from app.engine import EngineError, IllegalMoveError, UnreadableError
from app.i18n import wording
from app.store import GameNotFound, GameOver, VersionConflict
from app.web import messages
from app.web.language import request_language
from app.web.render import Renderer, is_htmx


def is_api(request: Request) -> bool:
    path: str = request.scope["path"]
    return path == "/api" or path.startswith("/api/")


def sentence(text: str) -> str:
    """An engine reason as a sentence for the page: capitalised, with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


async def problem(
    request: Request, status_code: int, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    """The error answer that suits the request: JSON, an htmx message, or a page."""
    if is_api(request):
        return JSONResponse({"detail": message}, status_code=status_code, headers=headers)
    renderer = cast(Renderer, request.app.state.renderer)
    if is_htmx(request):
        response = renderer.message(request, sentence(message), status_code)
    else:
        response = renderer.error(request, status_code, sentence(message))
    response.headers.update(headers or {})  # Retry-After, on a page too
    return response


def reason(error: EngineError) -> str:
    """What the engine's error says, in the player's language: a refusal worded from its
    facts, or input that cannot be read."""
    if isinstance(error, IllegalMoveError):
        return wording.refusal(error.refusal)
    if isinstance(error, UnreadableError):
        return wording.unreadable(error.fact)
    return str(error)  # already worded by the web layer (WordedRulesError)


def engine_status(error: EngineError) -> int:
    """422 for a move the rules refuse; 400 for input that cannot be read at all."""
    return 422 if isinstance(error, IllegalMoveError) else 400


def _field(location: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in location if part not in ("body", "query", "path"))


def validation_message(error: RequestValidationError) -> tuple[int, str]:
    """One readable sentence for a request that does not fit its schema."""
    problems = []
    for item in error.errors():
        kind = item.get("type", "")
        field = _field(tuple(item.get("loc", ())))
        if kind == "json_invalid":
            context = item.get("ctx", {})
            position = item.get("loc", ("body", 0))[-1]
            return 400, messages.bad_json(context.get("error", "unreadable"), position)
        if not field and kind in ("model_attributes_type", "dict_type", "model_type"):
            problems.append(messages.not_an_object())
        elif kind == "extra_forbidden":
            problems.append(messages.unknown_field(field))
        elif kind == "missing":
            problems.append(messages.missing_field(field or "body"))
        else:
            problem_text = str(item.get("msg", "invalid")).rstrip(".")
            problems.append(messages.bad_field(field or "body", problem_text))
    return 422, " ".join(dict.fromkeys(problems)) or messages.not_an_object()


def http_message(error: HTTPException, request: Request) -> str:
    if error.status_code == 404 and error.detail == "Not Found":
        return messages.page_not_found()
    if error.status_code == 405:
        return messages.method_not_allowed(request.method)
    return str(error.detail)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return await problem(request, error.status_code, http_message(error, request), error.headers)


async def _validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    status_code, message = validation_message(error)
    return await problem(request, status_code, message)


async def _engine_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, EngineError)
    return await problem(request, engine_status(error), reason(error))


async def _not_found(request: Request, error: Exception) -> Response:
    return await problem(request, 404, messages.game_not_found())


async def _conflict(request: Request, error: Exception) -> Response:
    assert isinstance(error, VersionConflict)
    return await problem(request, 409, messages.stale_version(error.current))


def game_over_message(error: GameOver) -> str:
    """Why a finished game refuses: it is won, or it was lost (abandoned)."""
    return messages.game_over_won() if error.result == "won" else messages.game_lost()


async def _game_over(request: Request, error: Exception) -> Response:
    assert isinstance(error, GameOver)
    return await problem(request, 422, game_over_message(error))


async def _server_error(request: Request, error: Exception) -> Response:
    # This handler runs outside the middleware that sets the language: set it again.
    with i18n.using(request_language(request)):
        return await problem(request, 500, messages.server_error())


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(EngineError, _engine_error)
    app.add_exception_handler(GameNotFound, _not_found)
    app.add_exception_handler(VersionConflict, _conflict)
    app.add_exception_handler(GameOver, _game_over)
    app.add_exception_handler(Exception, _server_error)
