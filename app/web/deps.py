"""Route dependencies as Annotated aliases: the requesting player, their game, the renderer,
the computer player.

All are `async def` (FastAPI runs a plain `def` dependency on a worker thread,
which costs more than these take), and a route needs only one or two: each
dependency FastAPI solves is a measurable share of a move's time.
"""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, Request

from app.engine import DealCode
from app.store import Prefs, StoredGame
from app.store.aio import AsyncStore
from app.store.games import Action
from app.web.computer import ComputerPlayer, computer_for
from app.web.identity import player_id
from app.web.limits import RateLimits
from app.web.render import Renderer


class Player:
    """The requesting player (named by their cookie) and the store's calls for their games;
    another player's game is never found."""

    def __init__(self, id: str, store: AsyncStore, request: Request | None = None) -> None:
        self.id = id
        self.store = store
        self.request = request

    async def create_game(self, code: DealCode) -> StoredGame:
        """Raises HTTPException 429 over the rate limits on new games."""
        if self.request is not None:
            limits: RateLimits = self.request.app.state.limits
            await limits.new_game(self.request, self.id)
        return await self.store.create_game(self.id, code)

    async def game(self, game_id: str) -> StoredGame:
        """Raises GameNotFound."""
        return await self.store.load_game(self.id, game_id)

    async def act(self, game_id: str, action: Action, *, version: int | None) -> StoredGame:
        """Apply and commit one action; raises GameNotFound, VersionConflict, EngineError."""
        return await self.store.act(self.id, game_id, action, version=version)

    async def resume(self) -> StoredGame | None:
        return await self.store.resume(self.id)

    async def prefs(self) -> Prefs:
        return await self.store.prefs(self.id)

    async def save_prefs(self, prefs: Prefs) -> None:
        await self.store.save_prefs(self.id, prefs)

    async def game_and_log(self, game_id: str) -> tuple[StoredGame, list[str]]:
        """The game and its action log, read together; raises GameNotFound."""
        return await self.store.game_and_log(self.id, game_id)

    async def record_hint(self, game_id: str, *, version: int) -> StoredGame:
        """Count a hint for the game at `version`; raises GameNotFound, VersionConflict."""
        return await self.store.record_hint(self.id, game_id, version=version)

    async def played_numbers(self) -> set[int]:
        return await self.store.played_numbers(self.id)


async def current_player(request: Request) -> Player:
    return Player(player_id(request), cast(AsyncStore, request.app.state.store), request)


async def get_renderer(request: Request) -> Renderer:
    return cast(Renderer, request.app.state.renderer)


async def get_computer(request: Request) -> ComputerPlayer:
    """The app's computer player, made on first use (its workers start with the first job)."""
    return computer_for(request.app)


PlayerDep = Annotated[Player, Depends(current_player)]
RendererDep = Annotated[Renderer, Depends(get_renderer)]
ComputerDep = Annotated[ComputerPlayer, Depends(get_computer)]


async def get_game(game_id: str, player: PlayerDep) -> StoredGame:
    """The requesting player's game `game_id`; 404 for anyone else's."""
    return await player.game(game_id)


GameDep = Annotated[StoredGame, Depends(get_game)]
