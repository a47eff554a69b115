"""The computer player's routes: hints (JSON and page), and "still winnable?" with its
toggle. (Winnable deals are dealt by the New game routes, through app/web/dealing.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Form, Request, Response
from starlette.exceptions import HTTPException

from app.store import Store, VersionConflict
from app.web import actions, language, messages
from app.web.api import ACTION_ERRORS, json_response
from app.web.computer import ComputerBusy, ComputerPlayer, SearchRefused
from app.web.deps import ComputerDep, PlayerIdDep, RendererDep, StoreDep
from app.web.errors import http_message, sentence
from app.web.limits import count_search, search_refused
from app.web.pages import refused
from app.web.render import is_htmx
from app.web.schemas import ErrorOut, HintBody, HintOut, WinnableOut
from app.web.views import game_dict

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


# -- JSON ------------------------------------------------------------------------------


@api.post(
    "/games/{game_id}/hint", response_model=HintOut, responses={**ACTION_ERRORS, **BUSY}
)
async def hint(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    computer: ComputerDep,
    body: HintBody | None = None,
) -> Response:
    """The next move of a winning line from the game's position, or why there is none
    (and how many undos lead back to a winnable position, when found). Counts as a hint
    used; the game's version does not change. 422 for a finished game, 429 over the rate
    limits or while the player's previous search is not over."""
    version = body.version if body else None
    await count_search(request, player)  # first: a refused flood costs no more than this
    given = await actions.hint(store, computer, player, game_id, version)
    answer = given.answer
    data: dict[str, Any] = {
        "move": answer.move,
        "message": given.text,
        "winnable": answer.winnable,
        "undo": answer.undo,
        "game": game_dict(given.stored),
    }
    return json_response(data)


@api.get("/games/{game_id}/winnable", response_model=WinnableOut, responses=ACTION_ERRORS)
async def winnable(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    computer: ComputerDep,
    version: int | None = None,
) -> Response:
    """Can the game still be won from its position at `version`? `winnable` is null when
    the solver could not tell in its budget (or is busy). 409 if `version` is not current;
    429 over the rate limits, or while the player's previous search is running."""
    stored, log = await store.run(Store.game_and_log, player, game_id)
    if version is not None and version != stored.version:
        raise VersionConflict(stored.version)
    game = stored.game
    verdict = True if game.won else computer.known_verdict(game)
    if verdict is None:
        await count_search(request, player)  # only a search counts: known verdicts are free
        try:
            verdict = await computer.still_winnable(player, game, log)
        except ComputerBusy:
            verdict = None
        except SearchRefused as error:
            raise await search_refused() from error
    return json_response({"version": stored.version, "winnable": verdict})


# -- pages -----------------------------------------------------------------------------


@pages.post("/games/{game_id}/hint")
async def page_hint(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    render: RendererDep,
    computer: ComputerDep,
    version: Annotated[int | None, Form()] = None,
) -> Response:
    """The Hint button and the H key: htmx gets the message block, whose `data-move`
    lights up the hinted card; without JavaScript, the board with the hint."""
    try:
        await count_search(request, player)
        given = await actions.hint(store, computer, player, game_id, version)
    except VersionConflict as error:
        reason = messages.stale_version(error.current)
        return await refused(request, store, player, game_id, render, 409, reason)
    except HTTPException as error:
        reason = sentence(http_message(error, request))
        return await refused(request, store, player, game_id, render, error.status_code, reason)
    move = given.answer.move or ""
    if is_htmx(request):
        return render.message(request, given.text, 200, hint=move)
    prefs = await store.run(Store.prefs, player)
    return render.page(request, given.stored, prefs, message=given.text, hint=move)


@pages.post("/prefs", status_code=204)
async def save_prefs(
    request: Request,
    store: StoreDep,
    player: PlayerIdDep,
    still_winnable: Annotated[bool | None, Form()] = None,
    sound: Annotated[bool | None, Form()] = None,
    lang: Annotated[str | None, Form()] = None,
) -> Response:
    """The page's own settings (the "Still winnable?" toggle, the menu's sound, the
    language switch); fields left out stay. A language choice goes back to the page, in
    that language."""
    prefs = await store.run(Store.prefs, player)
    if still_winnable is not None:
        prefs = replace(prefs, still_winnable=still_winnable)
    if sound is not None:
        prefs = replace(prefs, sound=sound)
    if lang is not None:
        prefs = replace(prefs, lang=language.saved_choice(lang))
    await store.run(Store.save_prefs, player, prefs)
    if lang is not None:
        return language.back_to_page(request)
    return Response(status_code=204)


router.include_router(api)
router.include_router(pages)
