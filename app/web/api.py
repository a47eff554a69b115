"""The JSON API of SPEC §7: create and get games, moves, undo, tap, and deal previews."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from app.engine import Card, DealCode, Game, Move
from app.store import Prefs, StoredGame
from app.web.dealing import winnable_code
from app.web.deps import ComputerDep, GameDep, PlayerDep
from app.web.direct import DirectRoute
from app.web.schemas import DealOut, ErrorOut, GameOut, MoveBody, NewGame, TapBody, UndoBody
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

router = APIRouter(prefix="/api", tags=["api"])


class JSONBytes(Response):
    """Encoded JSON not to be cached: Starlette's Response, its headers written at once."""

    media_type = "application/json"

    def __init__(self, content: bytes, status_code: int = 200) -> None:
        self.status_code = status_code
        self.background = None
        self.body = content
        self.raw_headers = [
            (b"cache-control", b"no-store"),
            (b"content-length", str(len(content)).encode()),
            (b"content-type", b"application/json"),
        ]


def game_response(stored: StoredGame, status_code: int = 200) -> Response:
    """The game as JSON, written directly (the schema is GameOut)."""
    return JSONBytes(to_json(game_dict(stored)), status_code)


# The move route comes first: routes are matched in order, and it is the busiest.
async def play_move(game_id: str, body: MoveBody, player: PlayerDep) -> Response:
    """Play a move in SPEC §4 notation; 422 with the reason if the rules refuse it."""
    move = Move.parse(body.move)

    def play(game: Game, prefs: Prefs) -> Move:
        return game.play(move)

    return game_response(await player.act(game_id, play, version=body.version))


# The busiest route reads its own parameters (DirectRoute); the OpenAPI stays FastAPI's.
router.add_api_route(
    "/games/{game_id}/moves",
    play_move,
    methods=["POST"],
    response_model=GameOut,
    responses=ACTION_ERRORS,
    route_class_override=DirectRoute,
)


@router.post("/games", status_code=201, response_model=GameOut, responses=NEW_GAME_ERRORS)
async def create_game(
    player: PlayerDep, computer: ComputerDep, body: NewGame | None = None
) -> Response:
    """A new game: `{}` is a random `app` draw-3 deal (see NewGame for the rest); with
    `"winnable": true`, a deal the computer player has won (503 if none can be found)."""
    new = body or NewGame()
    if new.winnable:
        code = await winnable_code(player, computer, new.winnable_rules())
    else:
        code = new.deal_code()
    return game_response(await player.create_game(code), 201)


@router.get("/games/{game_id}", response_model=GameOut, responses=ERRORS)
async def get_game(stored: GameDep) -> Response:
    return game_response(stored)


@router.post("/games/{game_id}/undo", response_model=GameOut, responses=ACTION_ERRORS)
async def undo(
    game_id: str, player: PlayerDep, body: UndoBody | None = None
) -> Response:
    """Take back the last kept action; 422 when there is none."""

    def take_back(game: Game, prefs: Prefs) -> None:
        game.undo()

    version = body.version if body else None
    return game_response(await player.act(game_id, take_back, version=version))


@router.post("/games/{game_id}/tap", response_model=GameOut, responses=ACTION_ERRORS)
async def tap(game_id: str, body: TapBody, player: PlayerDep) -> Response:
    """Play the move a tap on `card` makes (SPEC §4); 422 when it has none."""
    card = Card.parse(body.card)

    def tap_card(game: Game, prefs: Prefs) -> Move:
        double_click = prefs.double_click if body.double_click is None else body.double_click
        return game.tap(card, double_click=double_click, double=body.double)

    return game_response(await player.act(game_id, tap_card, version=body.version))


@router.get("/deals/{code}", response_model=DealOut, responses=ERRORS)
async def get_deal(code: str) -> Response:
    """The opening position of a deal code; no game is created."""
    return Response(to_json(deal_dict(DealCode.parse(code))), media_type="application/json")
