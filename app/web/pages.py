"""The page routes (SPEC §8): the board, resume, share, new game, and the form posts
that answer htmx with only the blocks that changed."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from app.engine import (
    CHOSEN_LEVELS,
    Card,
    DealCode,
    EngineError,
    Move,
    rules_for_level,
)
from app.stats import Mode
from app.store import GameOver, Store, StoredGame, VersionConflict
from app.store.aio import AsyncStore
from app.web import actions, messages
from app.web.dealing import allow_new_game, winnable_code
from app.web.deps import ComputerDep, GameDep, PlayerIdDep, RendererDep, StoreDep
from app.web.errors import engine_status, game_over_message, sentence
from app.web.errors import reason as engine_reason
from app.web.render import VARY, Renderer, is_htmx
from app.web.schemas import WordedRulesError, level_named, random_deal, rules_from
from app.web.views import mode_row, mode_rows

router = APIRouter(tags=["pages"], include_in_schema=False)

# The query a first visit comes back with, its cookie set (see `resume`).
COOKIE_CHECK = "welcome"
Version = Annotated[int | None, Form(description="the version shown when the form was drawn")]


def _see(url: str) -> Response:
    return RedirectResponse(url, status_code=303, headers=VARY)


def _to_game(request: Request, stored: StoredGame) -> Response:
    url = f"/games/{stored.id}"
    if is_htmx(request):
        return Response(status_code=200, headers={**VARY, "HX-Redirect": url})
    return _see(url)


@router.get("/")
async def resume(
    request: Request, store: StoreDep, player: PlayerIdDep, render: RendererDep
) -> Response:
    """Continue the game in progress; without one, the start window (seed 004) on a page
    of its own, which writes nothing until the player presses PLAY."""
    stored = await store.run(Store.resume, player)
    if stored is not None:
        return _see(f"/games/{stored.id}")
    return render.start(request, await store.run(Store.prefs, player))


async def _mode_row(store: AsyncStore, player: str, mode: Mode) -> dict[str, Any] | None:
    """The player's statistics of one mode, as the start window and the results screen
    show them (None before its first finished game)."""
    modes, _ = await store.run(Store.stats, player)
    figures = modes.get(mode)
    return mode_row(mode, figures) if figures and figures.played else None


@router.get("/start/results")
async def start_results(
    request: Request,
    store: StoreDep,
    player: PlayerIdDep,
    render: RendererDep,
    preset: str = "app",
    level: str = "medium",
    draw: int = 3,
) -> Response:
    """The start window's results for the chosen mode (an htmx fragment)."""
    row = await _mode_row(store, player, (preset, level, draw))
    return render.fragment(request, "_start.html", "results", {"row": row})


@router.get("/stats")
async def stats_page(
    request: Request, store: StoreDep, player: PlayerIdDep, render: RendererDep
) -> Response:
    """Every mode's statistics and chart, and the casino bankroll."""
    modes, bankroll = await store.run(Store.stats, player)
    return render.stats(request, mode_rows(modes), bankroll)


@router.get("/games/{game_id}")
async def board(
    request: Request, stored: GameDep, store: StoreDep, player: PlayerIdDep, render: RendererDep
) -> Response:
    prefs = await store.run(Store.prefs, player)
    results = await _results(store, player, stored)
    return render.page(request, stored, prefs, results=results)


async def _results(store: AsyncStore, player: str, stored: StoredGame) -> dict[str, Any] | None:
    """A won game's results screen: the score's parts and its mode's statistics."""
    if stored.result != "won":
        return None
    game, rules = stored.game, stored.game.rules
    return {
        "parts": game.scoring.parts(game.points, game.seconds, True),
        "row": await _mode_row(store, player, (rules.preset, stored.level, rules.draw)),
    }


@router.get("/deal/{code}")
async def share(
    request: Request, code: str, store: StoreDep, player: PlayerIdDep, render: RendererDep
) -> Response:
    """A new game of a shared deal, with its rules (level shared); the sharer's game is
    untouched. During a game in progress it shows the deal and asks first (SPEC §10)."""
    deal = DealCode.parse(code)
    current = await store.run(Store.resume, player)
    if current is not None and current.version > 0:
        return render.confirm_deal(request, deal, current)
    await allow_new_game(request, player)
    return _to_game(request, await store.run(Store.create_game, player, deal, "shared"))


@router.post("/deal/{code}")
async def play_shared(
    request: Request, code: str, store: StoreDep, player: PlayerIdDep
) -> Response:
    """The shared deal, after the player agreed that their game counts as lost."""
    deal = DealCode.parse(code)
    await allow_new_game(request, player)
    return _to_game(request, await store.run(Store.create_game, player, deal, "shared"))


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
    level: Annotated[str, Form()] = "medium",
    double_click: Annotated[list[str] | None, Form()] = None,
) -> Response:
    """The start window's PLAY: remembers its choices as the player's, then deals at the
    level (easy: a deal the computer player has won under those rules). The game in
    progress, if any, ends with it (SPEC §10)."""
    chosen = level_named(level)
    if chosen not in CHOSEN_LEVELS:
        raise WordedRulesError(messages.shared_without_deal())
    rules = rules_for_level(rules_from(preset, draw), chosen)
    prefs = replace(
        await store.run(Store.prefs, player),
        double_click=_checked(double_click, True),
        preset=rules.preset,
        draw=rules.draw,
        level=chosen,
        winnable_only=chosen == "easy",
    )
    await store.run(Store.save_prefs, player, prefs)
    await allow_new_game(request, player)
    if chosen == "easy":
        code = await winnable_code(player, computer, rules)
    else:
        code = random_deal(rules)
    return _to_game(request, await store.run(Store.create_game, player, code, chosen))


@router.post("/games/{game_id}/pause")
async def pause(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    render: RendererDep,
    version: Version = None,
) -> Response:
    """Pause: the clock stops and the board is hidden until Resume or the next action."""
    stored = await store.run(Store.pause, player, game_id, version=version)
    return _clock_answer(request, render, stored)


@router.post("/games/{game_id}/resume")
async def resume_clock(
    request: Request,
    game_id: str,
    store: StoreDep,
    player: PlayerIdDep,
    render: RendererDep,
    version: Version = None,
) -> Response:
    stored = await store.run(Store.resume_clock, player, game_id, version=version)
    return _clock_answer(request, render, stored)


def _clock_answer(request: Request, render: Renderer, stored: StoredGame) -> Response:
    if is_htmx(request):
        return render.update(request, stored, ["status"])
    return _see(f"/games/{stored.id}")


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
    current = await store.load_game(player, game_id)
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
        reason = messages.stale_version(error.current)
        return await refused(request, store, player, game_id, render, 409, reason)
    except EngineError as error:
        status_code, reason = engine_status(error), sentence(engine_reason(error))
        return await refused(request, store, player, game_id, render, status_code, reason)
    except GameOver as error:
        reason = game_over_message(error)
        return await refused(request, store, player, game_id, render, 422, reason)
    if is_htmx(request):
        results = await _results(store, player, done.stored)
        return render.update(request, done.stored, done.changed(), results)
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
