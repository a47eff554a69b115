"""The store for async routes: its calls run on worker threads, or on the event loop, and
its background work (SQLite's checkpoints) on a thread of its own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from app.engine import DealCode
from app.store.db import Checkpointer
from app.store.games import Action, Prefs, Store, StoredGame

T = TypeVar("T")


class AsyncStore:
    """`Store`'s methods, awaitable. With `threads` > 0 the database work runs on that
    many worker threads (PostgreSQL: calls wait on the network). With 0 it runs right
    on the event loop: SQLite's calls are short and its writes take turns anyway, and
    bench/server.py measured that fastest (no hand-over between threads); its WAL
    checkpoints, which wait on the disk, are the `checkpointer`'s, off the event loop."""

    def __init__(
        self, store: Store, *, threads: int, checkpointer: Checkpointer | None = None
    ) -> None:
        self.store = store
        self.checkpointer = checkpointer
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
        self.store.close()
        self.store.engine.dispose()

    async def _run(self, call: Callable[[], T]) -> T:
        if self._executor is None:
            return call()
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def run(self, call: Callable[[], T]) -> T:
        """Run a call of the store's where its calls run (a worker thread, or right here)."""
        return await self._run(call)

    async def prefs(self, player_id: str) -> Prefs:
        return await self._run(partial(self.store.prefs, player_id))

    async def save_prefs(self, player_id: str, prefs: Prefs) -> None:
        await self._run(partial(self.store.save_prefs, player_id, prefs))

    async def create_game(self, player_id: str, code: DealCode) -> StoredGame:
        return await self._run(partial(self.store.create_game, player_id, code))

    async def load_game(self, player_id: str, game_id: str) -> StoredGame:
        return await self._run(partial(self.store.load_game, player_id, game_id))

    async def resume(self, player_id: str) -> StoredGame | None:
        return await self._run(partial(self.store.resume, player_id))

    async def act(
        self, player_id: str, game_id: str, action: Action, *, version: int | None = None
    ) -> StoredGame:
        call = partial(self.store.act, player_id, game_id, action, version=version)
        return await self._run(call)

    async def game_and_log(self, player_id: str, game_id: str) -> tuple[StoredGame, list[str]]:
        return await self._run(partial(self.store.game_and_log, player_id, game_id))

    async def record_hint(self, player_id: str, game_id: str, *, version: int) -> StoredGame:
        return await self._run(
            partial(self.store.record_hint, player_id, game_id, version=version)
        )

    async def played_numbers(self, player_id: str) -> set[int]:
        return await self._run(partial(self.store.played_numbers, player_id))

    def close(self) -> None:
        """Finish the work in hand, stop the background work and close the database
        connections (repeatable)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        self.stop()
