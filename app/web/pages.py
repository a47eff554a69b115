"""The page routes (SPEC §8): the board, resume, share, new game, and the form posts
that answer htmx with only the blocks that changed."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from app.engine import Card, DealCode, EngineError, Game, Move
from app.i18n import gettext as _
from app.store import Prefs, StoredGame, VersionConflict
from app.store.games import Action
from app.web import messages
from app.web.dealing import winnable_code
from app.web.deps import ComputerDep, GameDep, Player, PlayerDep, RendererDep
from app.web.errors import engine_status, sentence
from app.web.render import VARY, Renderer, is_htmx
from app.web.schemas import random_deal, rules_from

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
    request: Request, player: PlayerDep, computer: ComputerDep, render: RendererDep
) -> Response:
    """Continue the latest unfinished game, or deal a new one with the player's choices.
    A first visit comes back once with its new cookie before a game is written (a
    client that keeps no cookie would otherwise leave a game behind at every visit)."""
    if getattr(request.state, "new_player", None):
        if COOKIE_CHECK not in request.query_params:
            return _see(f"/?{COOKIE_CHECK}=1")
        return render.error(
            request,
            400,
            _(
                "This game keeps your place with a cookie, and your browser did not "
                "send it back: allow cookies for this site, then reload."
            ),
        )
    stored = await player.resume()
    if stored is None:
        prefs = await player.prefs()
        rules = rules_from(prefs.preset, prefs.draw)
        if prefs.winnable_only:
            code = await winnable_code(player, computer, rules)
        else:
            code = random_deal(rules)
        stored = await player.create_game(code)
    return _see(f"/games/{stored.id}")


@router.get("/games/{game_id}")
async def board(
    request: Request, stored: GameDep, player: PlayerDep, render: RendererDep
) -> Response:
    return render.page(request, stored, await player.prefs())


@router.get("/deal/{code}")
async def share(request: Request, code: str, player: PlayerDep) -> Response:
    """A new game of a shared deal, with its rules; the sharer's game is untouched."""
    deal = DealCode.parse(code)
    return _to_game(request, await player.create_game(deal))


def _checked(values: list[str] | None, default: bool) -> bool:
    # A checked box follows its hidden "false" twin, so the last value is the choice.
    return (values or ["true" if default else "false"])[-1].lower() in ("true", "on", "1")


@router.post("/games")
async def new_game(
    request: Request,
    player: PlayerDep,
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
        await player.prefs(),
        double_click=_checked(double_click, True),
        preset=rules.preset,
        draw=rules.draw,
        winnable_only=winnable_only,
    )
    await player.save_prefs(prefs)
    code = await winnable_code(player, computer, rules) if winnable_only else random_deal(rules)
    return _to_game(request, await player.create_game(code))


async def _act(
    request: Request,
    game_id: str,
    player: Player,
    render: Renderer,
    action: Action,
    version: int | None,
) -> Response:
    """Apply an action from a form; answer htmx with the changed blocks, others with a
    redirect to the board (or the board with the reason, when refused)."""
    htmx = is_htmx(request)
    try:
        stored = await player.act(game_id, action, version=version)
    except (EngineError, VersionConflict) as error:
        if isinstance(error, VersionConflict):
            status_code = 409
            reason = messages.STALE_VERSION.format(current=error.current)
        else:
            status_code = engine_status(error)
            reason = sentence(str(error))
        if htmx:
            return render.message(request, reason, status_code)
        current = await player.game(game_id)
        prefs = await player.prefs()
        return render.page(request, current, prefs, message=reason, status_code=status_code)
    if htmx:
        return render.update(request, stored)
    return _see(f"/games/{game_id}")


@router.post("/games/{game_id}/moves")
async def play_move(
    request: Request,
    game_id: str,
    player: PlayerDep,
    render: RendererDep,
    move: Annotated[str, Form()],
    version: Version = None,
) -> Response:
    parsed = Move.parse(move)

    def play(game: Game, prefs: Prefs) -> Move:
        return game.play(parsed)

    return await _act(request, game_id, player, render, play, version)


@router.post("/games/{game_id}/undo")
async def undo(
    request: Request,
    game_id: str,
    player: PlayerDep,
    render: RendererDep,
    version: Version = None,
) -> Response:
    def take_back(game: Game, prefs: Prefs) -> None:
        game.undo()

    return await _act(request, game_id, player, render, take_back, version)


@router.post("/games/{game_id}/tap")
async def tap(
    request: Request,
    game_id: str,
    player: PlayerDep,
    render: RendererDep,
    card: Annotated[str, Form()],
    double_click: Annotated[bool | None, Form()] = None,
    double: Annotated[bool, Form()] = False,
    version: Version = None,
) -> Response:
    tapped = Card.parse(card)

    def tap_card(game: Game, prefs: Prefs) -> Move:
        to_column = prefs.double_click if double_click is None else double_click
        return game.tap(tapped, double_click=to_column, double=double)

    return await _act(request, game_id, player, render, tap_card, version)

