"""The store for async routes: its calls run on worker threads, or on the event loop, and
its background work (SQLite's checkpoints) on a thread of its own; on PostgreSQL the
busiest (an action, loading a game) on the event loop through asyncpg."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Concatenate, ParamSpec, TypeVar

from app.store.db import Checkpointer
from app.store.games import Action, Store, StoredGame
from app.store.pg_loop import EventLoopGames

P = ParamSpec("P")
T = TypeVar("T")


class AsyncStore:
    """`Store`'s methods, awaitable through `run`. With `threads` > 0 the database work
    runs on that many worker threads (PostgreSQL: calls wait on the network). With 0 it runs right
    on the event loop: SQLite's calls are short and its writes take turns anyway, and
    bench/server.py measured that fastest (no hand-over between threads); its WAL
    checkpoints, which wait on the disk, are the `checkpointer`'s, off the event loop.
    With `games` (PostgreSQL), `act` and `load_game` run on the event loop through it,
    and whatever it leaves goes to the store's own methods."""

    def __init__(
        self,
        store: Store,
        *,
        threads: int,
        checkpointer: Checkpointer | None = None,
        games: EventLoopGames | None = None,
    ) -> None:
        self.store = store
        self.checkpointer = checkpointer
        self.games = games
        self._executor = (
            ThreadPoolExecutor(threads, thread_name_prefix="store") if threads else None
        )

    def start(self) -> None:
        """Start the background work (repeatable)."""
        if self.checkpointer is not None:
            self.checkpointer.start()

    def stop(self) -> None:
        """Stop the background work and close the database connections; the connections
        reopen when used, and `start` starts the work again (repeatable)."""
        if self.checkpointer is not None:
            self.checkpointer.stop()
        if self.games is not None:
            self.games.terminate()
        self.store.close()
        self.store.engine.dispose()

    async def stop_here(self) -> None:
        """`stop`, from the event loop: this loop's asyncpg connections say goodbye."""
        if self.games is not None:
            await self.games.close()
        self.stop()

    async def act(
        self, player_id: str, game_id: str, action: Action, *, version: int | None = None
    ) -> StoredGame:
        """`Store.act`, awaited."""
        if self.games is not None:
            done = await self.games.act(player_id, game_id, action, version=version)
            if done is not None:
                return done
        return await self.run(Store.act, player_id, game_id, action, version=version)

    async def load_game(self, player_id: str, game_id: str) -> StoredGame:
        """`Store.load_game`, awaited."""
        if self.games is not None:
            return await self.games.load_game(player_id, game_id)
        return await self.run(Store.load_game, player_id, game_id)

    async def run(
        self, method: Callable[Concatenate[Store, P], T], /, *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """`method(store, *args, **kwargs)` for one of `Store`'s methods, awaited:
        `await store.run(Store.act, player_id, game_id, action, version=3)`."""
        if self._executor is None:
            return method(self.store, *args, **kwargs)
        call = partial(method, self.store, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def call(self, call: Callable[[], T]) -> T:
        """Run any call that uses the store's database (limits, leases, played deals) where
        the store's calls run: a worker thread, or right here."""
        if self._executor is None:
            return call()
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def close(self) -> None:
        """Finish the work in hand, stop the background work and close the database
        connections (repeatable)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        self.stop()
