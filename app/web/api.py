"""The JSON API of SPEC §7: create and get games, moves, undo, tap, and deal previews."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from starlette.requests import Request

from app.engine import Card, DealCode, Move
from app.stats import stats_json
from app.store import Store, StoredGame
from app.web import actions
from app.web.bodies import json_body
from app.web.dealing import allow_new_game, winnable_code
from app.web.deps import ComputerDep, GameDep, PlayerIdDep, StoreDep, store_of
from app.web.identity import player_id
from app.web.schemas import (
    ClockBody,
    DealOut,
    ErrorOut,
    GameOut,
    MoveBody,
    NewGame,
    StatsOut,
    TapBody,
    UndoBody,
)
from app.web.views import deal_dict, game_dict, to_json

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The request cannot be read (bad JSON, code, card)"},
    403: {"model": ErrorOut, "description": "A cross-site request"},
    404: {"model": ErrorOut, "description": "No such game for this player"},
    413: {"model": ErrorOut, "description": "The body is too large"},
    415: {"model": ErrorOut, "description": "The body is not application/json"},
    422: {"model": ErrorOut, "description": "The rules refuse it, or the body does not fit"},
}
ACTION_ERRORS = {**ERRORS, 409: {"model": ErrorOut, "description": "`version` is not current"}}
NEW_GAME_ERRORS = {
    **ERRORS,
    429: {"model": ErrorOut, "description": "Too many new games (see Retry-After)"},
    503: {"model": ErrorOut, "description": "No winnable deal can be found just now"},
}
NO_STORE = {"cache-control": "no-store"}

router = APIRouter(prefix="/api", tags=["api"])


def json_response(data: dict[str, Any], status_code: int = 200) -> Response:
    """`data` as JSON (views.to_json), not to be cached."""
    return Response(to_json(data), status_code, NO_STORE, "application/json")


def game_response(stored: StoredGame, status_code: int = 200) -> Response:
    """The game as JSON (the schema is GameOut)."""
    return json_response(game_dict(stored), status_code)


MOVE_PATH = "/api/games/{game_id}/moves"


@router.post("/games/{game_id}/moves", response_model=GameOut, responses=ACTION_ERRORS)
async def play_move(
    game_id: str, body: MoveBody, store: StoreDep, player: PlayerIdDep
) -> Response:
    """Play a move in SPEC §4 notation; 422 with the reason if the rules refuse it."""
    done = await actions.play(store, player, game_id, Move.parse(body.move), body.version)
    return game_response(done.stored)


async def play_move_directly(request: Request) -> Response:
    """`play_move` without FastAPI's request handling (dependencies, exit stacks,
    content-type parsing), which cost about a fifth of a move's server time
    (bench/server.py). The app answers MOVE_PATH with it on a plain Starlette route put
    before `router`, so it matches first; FastAPI's route for `play_move` documents it
    (/openapi.json) and answers the same (tests/web/test_move_route.py)."""
    body = await json_body(request, MoveBody)
    game_id: str = request.path_params["game_id"]
    return await play_move(game_id, body, store_of(request), player_id(request))


@router.post("/games", status_code=201, response_model=GameOut, responses=NEW_GAME_ERRORS)
async def create_game(
    request: Request,
    store: StoreDep,
    player: PlayerIdDep,
    computer: ComputerDep,
    body: NewGame | None = None,
) -> Response:
    """A new game: `{}` is a random `app` draw-3 deal at level medium (see NewGame for the
    rest); level easy (or `"winnable": true`) is a deal the computer player has won (503 if
    none can be found). The player's game in progress ends with it (SPEC §10): lost if it
    had an action."""
    new = body or NewGame()
    level = new.chosen_level()
    await allow_new_game(request, player)
    if level == "easy":
        code = await winnable_code(player, computer, new.level_rules())
    else:
        code = new.deal_code()
    return game_response(await store.run(Store.create_game, player, code, level), 201)


@router.get("/games/{game_id}", response_model=GameOut, responses=ERRORS)
async def get_game(stored: GameDep) -> Response:
    return game_response(stored)


@router.post("/games/{game_id}/undo", response_model=GameOut, responses=ACTION_ERRORS)
async def undo(
    game_id: str, store: StoreDep, player: PlayerIdDep, body: UndoBody | None = None
) -> Response:
    """Take back the last kept action; 422 when there is none."""
    version = body.version if body else None
    return game_response((await actions.undo(store, player, game_id, version)).stored)


@router.post("/games/{game_id}/tap", response_model=GameOut, responses=ACTION_ERRORS)
async def tap(game_id: str, body: TapBody, store: StoreDep, player: PlayerIdDep) -> Response:
    """Play the move a tap on `card` makes (SPEC §4); 422 when it has none."""
    done = await actions.tap(
        store,
        player,
        game_id,
        Card.parse(body.card),
        double_click=body.double_click,
        double=body.double,
        version=body.version,
    )
    return game_response(done.stored)


@router.post("/games/{game_id}/pause", response_model=GameOut, responses=ACTION_ERRORS)
async def pause(
    game_id: str, store: StoreDep, player: PlayerIdDep, body: ClockBody | None = None
) -> Response:
    """Stop the game's clock (`paused`: true) until the next action or resume; not an
    action (the version stays). 422 for a finished game."""
    version = body.version if body else None
    return game_response(await store.run(Store.pause, player, game_id, version=version))


@router.post("/games/{game_id}/resume", response_model=GameOut, responses=ACTION_ERRORS)
async def resume(
    game_id: str, store: StoreDep, player: PlayerIdDep, body: ClockBody | None = None
) -> Response:
    """Start a paused game's clock again; not an action. 422 for a finished game."""
    version = body.version if body else None
    return game_response(await store.run(Store.resume_clock, player, game_id, version=version))


@router.get("/stats", response_model=StatsOut, responses=ERRORS)
async def stats(store: StoreDep, player: PlayerIdDep) -> Response:
    """The player's statistics per mode over their finished games, and their casino
    bankroll (SPEC §10); read from running totals, whatever the number of games."""
    return json_response(stats_json(*await store.run(Store.stats, player)))


@router.get("/deals/{code}", response_model=DealOut, responses=ERRORS)
async def get_deal(code: str) -> Response:
    """The opening position of a deal code; no game is created."""
    return Response(to_json(deal_dict(DealCode.parse(code))), media_type="application/json")
