"""Route dependencies as Annotated aliases: the store, the requesting player's id, their
game, the renderer, the computer player.

All are `async def` (FastAPI runs a plain `def` dependency on a worker thread,
which costs more than these take): each dependency FastAPI solves is a measurable
share of a move's time.
"""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, Request

from app.store import StoredGame
from app.store.aio import AsyncStore
from app.web.computer import ComputerPlayer, computer_for
from app.web.identity import player_id
from app.web.render import Renderer


def store_of(request: Request) -> AsyncStore:
    """The app's store (for a route that reads its own parameters)."""
    return cast(AsyncStore, request.app.state.store)


async def get_store(request: Request) -> AsyncStore:
    return store_of(request)


async def get_player_id(request: Request) -> str:
    """The requesting player, named by their cookie (a new player gets one)."""
    return player_id(request)


async def get_renderer(request: Request) -> Renderer:
    return cast(Renderer, request.app.state.renderer)


async def get_computer(request: Request) -> ComputerPlayer:
    """The app's computer player, made on first use (its workers start with the first job)."""
    return computer_for(request.app)


StoreDep = Annotated[AsyncStore, Depends(get_store)]
PlayerIdDep = Annotated[str, Depends(get_player_id)]
RendererDep = Annotated[Renderer, Depends(get_renderer)]
ComputerDep = Annotated[ComputerPlayer, Depends(get_computer)]


async def get_game(game_id: str, store: StoreDep, player: PlayerIdDep) -> StoredGame:
    """The requesting player's game `game_id`; 404 for anyone else's."""
    return await store.load_game(player, game_id)


GameDep = Annotated[StoredGame, Depends(get_game)]
