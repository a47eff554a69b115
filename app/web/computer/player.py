"""The computer player's calls for the routes: one search per player at a time (held in
the database, so it holds across servers), in turn with the other players' searches.

A player's newer request takes the place of their older one while that one still
waits here (the older is answered 429); while it runs, or waits on another server,
the newer is refused (429). Only plain data crosses to the workers (jobs.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from fastapi import FastAPI

from app.engine import DealCode, Game, Rules
from app.engine.state import encode_position
from app.solver.deals import winnable_numbers
from app.store.aio import AsyncStore
from app.store.games import new_id
from app.store.limits import Searches
from app.store.played import PlayedDeals
from app.web import metrics
from app.web.computer.jobs import HintAnswer, hint_job, still_winnable_job, winnable_deal_job
from app.web.computer.pool import Busy, WorkerPool

T = TypeVar("T")
log = logging.getLogger(__name__)

# Positions whose "still winnable?" verdict is known (True or False; never "not sure").
VERDICTS_KEPT = 4096
# A search that waited this long for a worker is given up (503).
WAIT_SECONDS = 60.0
# How long a player's search stays held should its server die without giving it back:
# longer than any wait plus the longest budget (a still-winnable check, 10 s).
LEASE_SECONDS = WAIT_SECONDS + 60.0


class ComputerBusy(Exception):
    """No worker can take the search now (too many waiting, or a worker died)."""


class SearchRefused(Exception):
    """The player already has a search running or waiting (or a newer one took this
    one's place)."""


class NoWinnableDeal(Exception):
    """No winnable deal could be found for the rules (see the message)."""


@dataclass(eq=False)
class _Turn:
    """A search of this process waiting for a worker."""

    token: str
    loop: asyncio.AbstractEventLoop
    wait: asyncio.Future[None] | None = None
    replaced: bool = False
    released_later: bool = False  # by `_release`, when its search ends


@dataclass
class ComputerPlayer:
    """The app's worker pool and the calls that use it."""

    store: AsyncStore
    workers: int
    max_waiting: int = 256
    wait_seconds: float = WAIT_SECONDS
    pool: WorkerPool = field(init=False)
    searches: Searches = field(init=False)
    played: PlayedDeals = field(init=False)
    _turns: dict[str, _Turn] = field(init=False, default_factory=dict)
    _verdicts: OrderedDict[tuple[str, str], bool] = field(init=False, default_factory=OrderedDict)

    def __post_init__(self) -> None:
        self.pool = WorkerPool(self.workers)
        self.searches = Searches(self.store.store)
        self.played = PlayedDeals(self.store.store)

    def shutdown(self) -> None:
        """End the workers (repeatable; they restart on use)."""
        self.pool.shutdown()

    # -- one search per player, in turn -------------------------------------------

    async def _take(self, player_id: str) -> _Turn:
        """The player's search slot, taken from the database or from their own older
        search that still waits here. Raises SearchRefused, ComputerBusy."""
        token = new_id()
        taken = await self.store.call(partial(self.searches.take, player_id, token, LEASE_SECONDS))
        loop = asyncio.get_running_loop()
        if not taken:
            older = self._turns.get(player_id)
            if older is None or older.wait is None or older.wait.done():
                raise SearchRefused(player_id)
            older.replaced = True
            older.loop.call_soon_threadsafe(older.wait.cancel)
            token = older.token
        turn = _Turn(token, loop)
        if self.pool.gate.waiting >= self.max_waiting:
            await self._give_back(player_id, turn)
            raise ComputerBusy("too many searches waiting")
        return turn

    async def _give_back(self, player_id: str, turn: _Turn) -> None:
        if not turn.replaced:
            await self.store.call(partial(self.searches.give_back, player_id, turn.token))

    async def _search(self, player_id: str, job: Callable[..., T], *args: Any) -> T:
        """Run `job(*args)` for the player in their turn. Raises SearchRefused,
        ComputerBusy."""
        turn = await self._take(player_id)
        running: Future[T] | None = None
        try:
            await self._wait_turn(player_id, turn)
            try:
                running = await self.pool.submit(job, *args)
                return await self.pool.result(running)
            except Busy as error:
                raise ComputerBusy(str(error)) from error
            except asyncio.CancelledError:
                if running is not None and not running.done():
                    # The client left, but a search in a worker runs on to its end: the
                    # worker and the player's search stay taken until then.
                    running.add_done_callback(lambda _: self._release(player_id, turn))
                    turn.released_later = True
                raise
            finally:
                if not turn.released_later:
                    self.pool.gate.leave()
        finally:
            if not turn.released_later:
                await self._give_back(player_id, turn)

    def _release(self, player_id: str, turn: _Turn) -> None:
        """Give back a worker and a player's search from a worker's done callback."""
        self.pool.gate.leave()
        if not turn.replaced:
            try:
                self.searches.give_back(player_id, turn.token)
            except Exception:
                log.exception("a search could not be given back; its lease ends it")

    async def _wait_turn(self, player_id: str, turn: _Turn) -> None:
        self._turns[player_id] = turn
        started = time.perf_counter()
        metrics.SOLVER_QUEUE.inc()
        wait = turn.wait = asyncio.ensure_future(self.pool.gate.enter())
        try:
            await asyncio.wait_for(wait, self.wait_seconds)
        except TimeoutError as error:
            raise ComputerBusy("waited too long for a worker") from error
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if turn.replaced and not (task and task.cancelling()):
                raise SearchRefused(player_id) from None
            raise
        finally:
            metrics.SOLVER_QUEUE.dec()
            metrics.SOLVER_WAIT.observe(time.perf_counter() - started)
            if self._turns.get(player_id) is turn:
                del self._turns[player_id]

    # -- the three parts -------------------------------------------------------------

    async def hint(self, player_id: str, code: str, actions: list[str]) -> HintAnswer:
        """The solver's hint for the game that `actions` make of deal `code`.
        Raises SearchRefused, ComputerBusy."""
        return await self._search(player_id, hint_job, code, actions)

    async def still_winnable(self, player_id: str, game: Game, actions: list[str]) -> bool | None:
        """Can the game's position still be won? None: not known in the budget.
        Raises SearchRefused, ComputerBusy."""
        known = self.known_verdict(game)
        if known is not None:
            return known
        key = (game.rules.token, encode_position(game.position))
        verdict = await self._search(player_id, still_winnable_job, str(game.code), actions)
        if verdict is not None:
            self._verdicts[key] = verdict
            while len(self._verdicts) > VERDICTS_KEPT:
                self._verdicts.popitem(last=False)
        return verdict

    def known_verdict(self, game: Game) -> bool | None:
        """The "still winnable?" verdict of the game's position, if proved before (no
        search: it costs the player nothing)."""
        key = (game.rules.token, encode_position(game.position))
        known = self._verdicts.get(key)
        if known is not None:
            self._verdicts.move_to_end(key)
        return known

    async def winnable_deal(self, player_id: str, rules: Rules) -> DealCode:
        """A deal the solver has won under `rules`: a listed one the player has not played
        (asked of the index, no search), else one a worker finds, else a listed one again.
        Raises NoWinnableDeal, SearchRefused, ComputerBusy."""
        try:
            listed = winnable_numbers(rules)
        except (OSError, ValueError) as error:
            log.error("the list of winnable deals cannot be read: %s", error)
            raise NoWinnableDeal(str(error)) from error
        codes = [str(DealCode(rules, number=number)) for number in listed]
        fresh = await self.store.call(partial(self.played.first_unplayed, player_id, codes))
        if fresh is not None:
            return DealCode.parse(fresh)
        number = await self._search(player_id, winnable_deal_job, rules.to_dict(), listed)
        if number is None:
            if not listed:
                raise NoWinnableDeal(f"none found for {rules.token}")
            number = secrets.choice(listed)  # every listed deal played: one of them again
        return DealCode(rules, number=number)


def default_workers() -> int:
    """The cores this process may use, at least 1."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def computer_for(app: FastAPI) -> ComputerPlayer:
    """The app's computer player, made on first use (its workers start with the first job)."""
    state = app.state
    computer: ComputerPlayer | None = getattr(state, "computer", None)
    if computer is None:
        settings = state.settings
        workers = settings.solver_workers or default_workers()
        computer = state.computer = ComputerPlayer(
            state.store, workers, max_waiting=settings.solver_max_waiting
        )
    return computer
