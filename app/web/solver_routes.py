"""The computer player's routes: hints (JSON and page), and "still winnable?" with its
toggle. (Winnable deals are dealt by the New game routes, through app/web/dealing.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Form, Request, Response
from starlette.exceptions import HTTPException

from app.engine import Game, Move
from app.i18n import wording
from app.store import StoredGame, VersionConflict
from app.web import language, messages
from app.web.api import ACTION_ERRORS, JSONBytes
from app.web.computer import ComputerBusy, ComputerPlayer, HintAnswer
from app.web.deps import ComputerDep, Player, PlayerDep, RendererDep
from app.web.errors import http_message, sentence
from app.web.render import is_htmx
from app.web.schemas import ErrorOut, HintBody, HintOut, WinnableOut
from app.web.views import game_dict, to_json

BUSY: dict[int | str, dict[str, Any]] = {
    503: {"model": ErrorOut, "description": "The computer player is busy; try again"}
}


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield
    computer: ComputerPlayer | None = getattr(app.state, "computer", None)
    if computer is not None:
        computer.shutdown()


# The app includes `router` (one line); it holds the JSON routes and the page routes.
router = APIRouter(lifespan=lifespan)
api = APIRouter(prefix="/api", tags=["api"])
pages = APIRouter(tags=["pages"], include_in_schema=False)


# -- what the routes share ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GivenHint:
    """A hint as given: the solver's answer, its words, and the game with the count."""

    answer: HintAnswer
    text: str
    stored: StoredGame


def hint_text(answer: HintAnswer, game: Game) -> str:
    """The hint in words, in the player's language: the move spelt out, or why none."""
    if answer.move is None:
        return wording.no_hint(answer.why, answer.undo, game.undo_available)
    return wording.hint_move(Move.parse(answer.move), bool(game.position.stock))


async def give_hint(
    player: Player, computer: ComputerPlayer, game_id: str, version: int | None
) -> GivenHint:
    """Ask the computer player about the stored game, then count the hint.

    Raises GameNotFound; VersionConflict when `version` is not current, or the game
    moved while the solver thought (its hint would be for a position that is gone);
    HTTPException 422 for a won game, 503 when the solver is busy.
    """
    stored, log = await player.game_and_log(game_id)
    if version is not None and version != stored.version:
        raise VersionConflict(stored.version)
    if stored.game.won:
        raise HTTPException(422, wording.no_hint("won", None, 0))
    try:
        answer = await computer.hint(stored.code, log)
    except ComputerBusy as error:
        raise HTTPException(503, messages.computer_busy()) from error
    counted = await player.record_hint(game_id, version=stored.version)
    return GivenHint(answer, hint_text(answer, stored.game), counted)


# -- JSON ------------------------------------------------------------------------------


@api.post(
    "/games/{game_id}/hint", response_model=HintOut, responses={**ACTION_ERRORS, **BUSY}
)
async def hint(
    game_id: str, player: PlayerDep, computer: ComputerDep, body: HintBody | None = None
) -> Response:
    """The next move of a winning line from the game's position, or why there is none
    (and how many undos lead back to a winnable position, when found). Counts as a hint
    used; the game's version does not change. 422 for a won game."""
    given = await give_hint(player, computer, game_id, body.version if body else None)
    answer = given.answer
    data: dict[str, Any] = {
        "move": answer.move,
        "message": given.text,
        "winnable": answer.winnable,
        "undo": answer.undo,
        "game": game_dict(given.stored),
    }
    return JSONBytes(to_json(data))


@api.get("/games/{game_id}/winnable", response_model=WinnableOut, responses=ACTION_ERRORS)
async def winnable(
    game_id: str, player: PlayerDep, computer: ComputerDep, version: int | None = None
) -> Response:
    """Can the game still be won from its position at `version`? `winnable` is null when
    the solver could not tell in its budget (or is busy). 409 if `version` is not current."""
    stored, log = await player.game_and_log(game_id)
    if version is not None and version != stored.version:
        raise VersionConflict(stored.version)
    game = stored.game
    verdict = True if game.won else await computer.still_winnable(stored.id, game, log)
    return JSONBytes(to_json({"version": stored.version, "winnable": verdict}))


# -- pages -----------------------------------------------------------------------------


@pages.post("/games/{game_id}/hint")
async def page_hint(
    request: Request,
    game_id: str,
    player: PlayerDep,
    render: RendererDep,
    computer: ComputerDep,
    version: Annotated[int | None, Form()] = None,
) -> Response:
    """The Hint button and the H key: htmx gets the message block, whose `data-move`
    lights up the hinted card; without JavaScript, the board with the hint."""
    htmx = is_htmx(request)
    try:
        given = await give_hint(player, computer, game_id, version)
    except (VersionConflict, HTTPException) as error:
        if isinstance(error, VersionConflict):
            status_code, reason = 409, messages.stale_version(error.current)
        else:
            status_code, reason = error.status_code, sentence(http_message(error, request))
        if htmx:
            return render.message(request, reason, status_code)
        current = await player.game(game_id)
        prefs = await player.prefs()
        return render.page(request, current, prefs, message=reason, status_code=status_code)
    move = given.answer.move or ""
    if htmx:
        return render.message(request, given.text, 200, hint=move)
    prefs = await player.prefs()
    return render.page(request, given.stored, prefs, message=given.text, hint=move)


@pages.post("/prefs", status_code=204)
async def save_prefs(
    request: Request,
    player: PlayerDep,
    still_winnable: Annotated[bool | None, Form()] = None,
    lang: Annotated[str | None, Form()] = None,
) -> Response:
    """The page's own settings (the "Still winnable?" toggle, the language switch); fields
    left out stay. A language choice goes back to the page, in that language."""
    prefs = await player.prefs()
    if still_winnable is not None:
        prefs = replace(prefs, still_winnable=still_winnable)
    if lang is not None:
        prefs = replace(prefs, lang=language.saved_choice(lang))
    await player.save_prefs(prefs)
    if lang is not None:
        return language.back_to_page(request)
    return Response(status_code=204)


router.include_router(api)
router.include_router(pages)
