"""The page routes (SPEC §8): the board, resume, share, new game, and the form posts
that answer htmx with only the blocks that changed."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from app.engine import Card, DealCode, EngineError, Move
from app.store import Store, StoredGame, VersionConflict
from app.store.aio import AsyncStore
from app.web import actions, messages
from app.web.dealing import winnable_code
from app.web.deps import ComputerDep, GameDep, PlayerIdDep, RendererDep, StoreDep
from app.web.errors import engine_status, sentence
from app.web.render import VARY, Renderer, is_htmx
from app.web.schemas import random_deal, rules_from

router = APIRouter(tags=["pages"], include_in_schema=False)

Version = Annotated[int | None, Form(description="the version shown when the form was drawn")]


def _see(url: str) -> Response:
    return RedirectResponse(url, status_code=303, headers=VARY)


def _to_game(request: Request, stored: StoredGame) -> Response:
    url = f"/games/{stored.id}"
    if is_htmx(request):
        return Response(status_code=200, headers={**VARY, "HX-Redirect": url})
    return _see(url)


@router.get("/")
async def resume(store: StoreDep, player: PlayerIdDep, computer: ComputerDep) -> Response:
    """Continue the latest unfinished game, or deal a new one with the player's choices."""
    stored = await store.run(Store.resume, player)
    if stored is None:
        prefs = await store.run(Store.prefs, player)
        rules = rules_from(prefs.preset, prefs.draw)
        if prefs.winnable_only:
            code = await winnable_code(store, player, computer, rules)
        else:
            code = random_deal(rules)
        stored = await store.run(Store.create_game, player, code)
    return _see(f"/games/{stored.id}")


@router.get("/games/{game_id}")
async def board(
    request: Request, stored: GameDep, store: StoreDep, player: PlayerIdDep, render: RendererDep
) -> Response:
    return render.page(request, stored, await store.run(Store.prefs, player))


@router.get("/deal/{code}")
async def share(request: Request, code: str, store: StoreDep, player: PlayerIdDep) -> Response:
    """A new game of a shared deal, with its rules; the sharer's game is untouched."""
    deal = DealCode.parse(code)
    return _to_game(request, await store.run(Store.create_game, player, deal))


def _checked(values: list[str] | None, default: bool) -> bool:
    # A checked box follows its hidden "false" twin, so the last value is the choice.
    return (values or ["true" if default else "false"])[-1].lower() in ("true", "on", "1")


@router.post("/games")
async def new_game(
    request: Request,
    store: StoreDep,
    player: PlayerIdDep,
    computer: ComputerDep,
    preset: Annotated[str, Form()] = "app",
    draw: Annotated[int, Form()] = 3,
    double_click: Annotated[list[str] | None, Form()] = None,
    winnable: Annotated[list[str] | None, Form()] = None,
) -> Response:
    """The New game dialog: remembers its choices as the player's, then deals (with
    "Winnable deals only", a deal the computer player has won under those rules)."""
    rules = rules_from(preset, draw)
    winnable_only = _checked(winnable, False)
    prefs = replace(
        await store.run(Store.prefs, player),
        double_click=_checked(double_click, True),
        preset=rules.preset,
        draw=rules.draw,
        winnable_only=winnable_only,
    )
    await store.run(Store.save_prefs, player, prefs)
    if winnable_only:
        code = await winnable_code(store, player, computer, rules)
    else:
        code = random_deal(rules)
    return _to_game(request, await store.run(Store.create_game, player, code))


async def refused(
    request: Request,
    store: AsyncStore,
    player: str,
    game_id: str,
    render: Renderer,
    status_code: int,
    reason: str,
) -> Response:
    """A form post the game refused: htmx gets the message block, a plain form the board
    with the reason."""
    if is_htmx(request):
        return render.message(request, reason, status_code)
    current = await store.run(Store.load_game, player, game_id)
    prefs = await store.run(Store.prefs, player)
    return render.page(request, current, prefs, message=reason, status_code=status_code)


async def _answer(
    request: Request,
    store: AsyncStore,
    player: str,
    game_id: str,
    render: Renderer,
    action: Awaitable[actions.Done],
) -> Response:
    """Answer a form's action: htmx with the changed blocks, others with a redirect to the
    board (or the board with the reason, when refused)."""
    try:
        done = await action
    except VersionConflict as error:
        reason = messages.STALE_VERSION.format(current=error.current)
        return await refused(request, store, player, game_id, render, 409, reason)
    except EngineError as error:
        status_code, reason = engine_status(error), sentence(str(error))
        return await refused(request, store, player, game_id, render, status_code, reason)
    if is_htmx(request):
        return render.update(request, done.stored, done.changed())
    return _see(f"/games/{game_id}")


@router.post("/games/{game_id}/moves")
async def play_move(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    render: RendererDep,
    move: Annotated[str, Form()],
    version: Version = None,
) -> Response:
    played = actions.play(store, player, game_id, Move.parse(move), version)
    return await _answer(request, store, player, game_id, render, played)


@router.post("/games/{game_id}/undo")
async def undo(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    render: RendererDep,
    version: Version = None,
) -> Response:
    taken_back = actions.undo(store, player, game_id, version)
    return await _answer(request, store, player, game_id, render, taken_back)


@router.post("/games/{game_id}/tap")
async def tap(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    render: RendererDep,
    card: Annotated[str, Form()],
    double_click: Annotated[bool | None, Form()] = None,
    double: Annotated[bool, Form()] = False,
    version: Version = None,
) -> Response:
    tapped = actions.tap(
        store,
        player,
        game_id,
        Card.parse(card),
        double_click=double_click,
        double=double,
        version=version,
    )
    return await _answer(request, store, player, game_id, render, tapped)
