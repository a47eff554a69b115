"""Every error answer: JSON `{"detail": "..."}` under /api, an HTML message or page elsewhere."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from http import HTTPStatus
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
from app.web.bodies import UNREADABLE_BODY
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


# What a field of a body or form must be, by pydantic's error type (its own English
# `msg` is never shown: a player reads the message in their language).
_FIELD_PROBLEMS: dict[str, Callable[[str], str]] = {
    "int_type": messages.not_whole_number,
    "int_parsing": messages.not_whole_number,
    "int_from_float": messages.not_whole_number,
    "bool_type": messages.not_true_or_false,
    "bool_parsing": messages.not_true_or_false,
    "string_type": messages.not_text,
    "list_type": messages.not_a_list,
    "dict_type": messages.field_not_an_object,
    "model_type": messages.field_not_an_object,
    "model_attributes_type": messages.field_not_an_object,
    "extra_forbidden": messages.unknown_field,
    "missing": messages.missing_field,
}


def validation_message(error: RequestValidationError) -> tuple[int, str]:
    """One readable sentence for a request that does not fit its schema."""
    problems = []
    for item in error.errors():
        kind = item.get("type", "")
        field = _field(tuple(item.get("loc", ())))
        if kind == "json_invalid":
            return 400, messages.bad_json(item.get("loc", ("body", 0))[-1])
        if not field:
            missing = kind == "missing"
            problems.append(messages.missing_body() if missing else messages.not_an_object())
        else:
            problems.append(_FIELD_PROBLEMS.get(kind, messages.bad_field)(field))
    return 422, " ".join(dict.fromkeys(problems)) or messages.not_an_object()


def http_message(error: HTTPException, request: Request) -> str:
    """The message of an HTTP error: ours, already in the player's language, or worded
    here when it is Starlette's or FastAPI's English."""
    if error.status_code == 404 and error.detail == "Not Found":
        return messages.page_not_found()
    if error.status_code == 405:
        return messages.method_not_allowed(request.method)
    if error.detail == UNREADABLE_BODY:
        return messages.unreadable_body()
    if error.detail == _phrase(error.status_code):
        return messages.http_error(error.status_code)
    return str(error.detail)


def _phrase(status_code: int) -> str | None:
    """The standard English phrase of a status (`Bad Request`), which Starlette uses as the
    detail of an HTTPException raised without one."""
    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return None


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
