"""The computer player's routes: hints (JSON and page), and "still winnable?" with its
toggle. (Winnable deals are dealt by the New game routes, through app/web/dealing.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Form, Request, Response
from starlette.exceptions import HTTPException

from app.engine import FOUNDATION, Game, Move
from app.store import StoredGame, VersionConflict
from app.web import messages
from app.web.api import ACTION_ERRORS, JSONBytes
from app.web.computer import ComputerBusy, ComputerPlayer, HintAnswer, SearchRefused
from app.web.deps import ComputerDep, Player, PlayerDep, RendererDep
from app.web.errors import http_message, sentence
from app.web.limits import RateLimits, search_refused
from app.web.render import is_htmx
from app.web.schemas import ErrorOut, HintBody, HintOut, WinnableOut
from app.web.views import game_dict, to_json

BUSY: dict[int | str, dict[str, Any]] = {
    429: {
        "model": ErrorOut,
        "description": "Too many searches asked for, or the player's previous one is not over",
    },
    503: {"model": ErrorOut, "description": "The computer player is busy; try again"},
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
    """The hint in words: the move spelt out, or the solver's reason when there is none."""
    if answer.move is None:
        return sentence(answer.message)
    move = Move.parse(answer.move)
    if move.card is None:
        return messages.HINT_DRAW if game.position.stock else messages.HINT_TURN_OVER
    if move.target == FOUNDATION:
        where = messages.HINT_TO_FOUNDATION
    else:
        where = messages.HINT_TO_COLUMN.format(number=move.target + 1)
    return messages.HINT_MOVE.format(card=move.card.name, where=where, move=answer.move)


async def count_search(player: Player) -> None:
    """Count a search against the player's rate limits; HTTPException 429 over them."""
    request = player.request
    if request is not None:
        limits: RateLimits = request.app.state.limits
        await limits.search(request, player.id)


async def give_hint(
    player: Player, computer: ComputerPlayer, game_id: str, version: int | None
) -> GivenHint:
    """Ask the computer player about the stored game, then count the hint.

    Raises GameNotFound; VersionConflict when `version` is not current, or the game
    moved while the solver thought (its hint would be for a position that is gone);
    HTTPException 422 for a won game, 429 over the rate limits or while the player's
    previous search is not over, 503 when the solver is busy.
    """
    await count_search(player)  # first: a refused flood costs no more than this
    stored, log = await player.game_and_log(game_id)
    if version is not None and version != stored.version:
        raise VersionConflict(stored.version)
    if stored.game.won:
        raise HTTPException(422, messages.GAME_WON_NO_HINT)
    try:
        answer = await computer.hint(player.id, stored.code, log)
    except ComputerBusy as error:
        raise HTTPException(503, messages.COMPUTER_BUSY) from error
    except SearchRefused as error:
        raise await search_refused() from error
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
    the solver could not tell in its budget (or is busy). 409 if `version` is not current;
    429 over the rate limits, or while the player's previous search is running."""
    stored, log = await player.game_and_log(game_id)
    if version is not None and version != stored.version:
        raise VersionConflict(stored.version)
    game = stored.game
    verdict = True if game.won else computer.known_verdict(game)
    if verdict is None:
        await count_search(player)  # only a search counts: known verdicts cost nothing
        try:
            verdict = await computer.still_winnable(player.id, game, log)
        except ComputerBusy:
            verdict = None
        except SearchRefused as error:
            raise await search_refused() from error
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
            status_code, reason = 409, messages.STALE_VERSION.format(current=error.current)
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
    player: PlayerDep, still_winnable: Annotated[bool | None, Form()] = None
) -> Response:
    """The page's own settings (the "Still winnable?" toggle); fields left out stay."""
    prefs = await player.prefs()
    if still_winnable is not None:
        prefs = replace(prefs, still_winnable=still_winnable)
    await player.save_prefs(prefs)
    return Response(status_code=204)


router.include_router(api)
router.include_router(pages)
