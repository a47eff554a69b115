"""The computer player in the web app: hints, "still winnable?" and winnable deals.

Every search runs in one worker process (spawned on first use, shut down with the
app), so no request ever waits on the event loop for a solver. Only plain data
crosses over: a deal code and an action log in, a small answer out; the worker
rebuilds the game with `Game.replay`. Each search is capped by the solver's own
budgets (HINT_BUDGET, STILL_WINNABLE_BUDGET, ON_DEMAND_BUDGET).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import secrets
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from app.engine import DealCode, Game, Rules
from app.engine.state import encode_position
from app.solver.deals import NoWinnableDealError, winnable_deal, winnable_numbers
from app.solver.hint import hint, still_winnable
from app.solver.search import Verdict

T = TypeVar("T")
log = logging.getLogger(__name__)

# Jobs that may wait for the worker at once; beyond that a request is turned away at
# once (a hint that comes a minute late helps nobody, and the queue would only grow).
MAX_WAITING = 8
# Random deals the worker tries when a player has played every listed winnable deal
# (each within ON_DEMAND_BUDGET, 3 s): enough to find one under the presets' rules.
ON_DEMAND_ATTEMPTS = 8
# Positions whose "still winnable?" verdict is known (True or False; never "not sure").
VERDICTS_KEPT = 4096


class ComputerBusy(Exception):
    """The worker cannot take the job now (too many waiting, or it has died)."""


class NoWinnableDeal(Exception):
    """No winnable deal could be found for the rules (see the message)."""


@dataclass(frozen=True, slots=True)
class HintAnswer:
    """A hint as plain data. `winnable`: can the position be won (None: not known in
    time); `undo`: how many undos reach a winnable position when it cannot."""

    move: str | None
    message: str
    winnable: bool | None
    undo: int | None
    nodes: int
    seconds: float
    why: str = ""  # which case the message words when there is no move (see Hint)


# -- the jobs: run in the worker process, on plain data ---------------------------------


def hint_job(code: str, actions: list[str]) -> HintAnswer:
    found = hint(Game.replay(code, actions))
    winnable = {Verdict.WON: True, Verdict.UNWINNABLE: False}.get(found.verdict)
    move = None if found.move is None else str(found.move)
    return HintAnswer(
        move, found.message, winnable, found.undo, found.nodes, found.seconds, found.why
    )


def still_winnable_job(code: str, actions: list[str]) -> bool | None:
    game = Game.replay(code, actions)
    return still_winnable(game.position, game.rules)


def winnable_deal_job(rules: dict[str, Any], used: list[int]) -> int | None:
    try:
        return winnable_deal(Rules.from_dict(rules), set(used), attempts=ON_DEMAND_ATTEMPTS)
    except NoWinnableDealError:
        return None


# -- the server side ----------------------------------------------------------------------


class ComputerPlayer:
    """The app's one solver worker process and the calls that use it."""

    def __init__(self, *, max_waiting: int = MAX_WAITING) -> None:
        self.max_waiting = max_waiting
        self._executor: ProcessPoolExecutor | None = None
        self._waiting = 0
        # The latest "still winnable?" job of each game: a newer one replaces it.
        self._checks: dict[str, Future[bool | None]] = {}
        self._verdicts: OrderedDict[tuple[str, str], bool] = OrderedDict()

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn: a fresh interpreter, not a fork of a process with threads and sockets.
            self._executor = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    def _submit(self, job: Callable[..., T], *args: Any) -> Future[T]:
        if self._waiting >= self.max_waiting:
            raise ComputerBusy("too many searches waiting")
        try:
            return self._pool().submit(job, *args)
        except (BrokenProcessPool, RuntimeError) as error:
            self._drop_pool(error)
            raise ComputerBusy(str(error)) from error

    async def _wait(self, future: Future[T]) -> T:
        self._waiting += 1
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool as error:
            self._drop_pool(error)
            raise ComputerBusy(str(error)) from error
        finally:
            self._waiting -= 1

    def _drop_pool(self, error: BaseException) -> None:
        """Forget a broken worker; the next job starts a new one."""
        log.error("solver worker lost (%s); a new one starts with the next job", error)
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Cancel the jobs that wait and let the worker go (repeatable; it restarts on use)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        self._checks.clear()

    async def hint(self, code: str, actions: list[str]) -> HintAnswer:
        """The solver's hint for the game that `actions` make of deal `code`.
        Raises ComputerBusy."""
        return await self._wait(self._submit(hint_job, code, actions))

    async def still_winnable(self, game_id: str, game: Game, actions: list[str]) -> bool | None:
        """Can the game's position still be won? None: not known in the budget, or the
        worker is busy, or a newer check of the same game took this one's place."""
        key = (game.rules.token, encode_position(game.position))
        known = self._verdicts.get(key)
        if known is not None:
            self._verdicts.move_to_end(key)
            return known
        previous = self._checks.get(game_id)
        if previous is not None:
            previous.cancel()  # only one that has not started yet; a running one finishes
        try:
            future = self._submit(still_winnable_job, str(game.code), actions)
        except ComputerBusy:
            return None
        self._checks[game_id] = future
        try:
            verdict = await self._wait(future)
        except ComputerBusy:
            return None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if future.cancelled() and not (task and task.cancelling()):
                return None  # replaced by a newer check (this request was not cancelled)
            raise
        finally:
            if self._checks.get(game_id) is future:
                del self._checks[game_id]
        if verdict is not None:
            self._verdicts[key] = verdict
            while len(self._verdicts) > VERDICTS_KEPT:
                self._verdicts.popitem(last=False)
        return verdict

    async def winnable_deal(self, rules: Rules, played: set[int]) -> DealCode:
        """A deal the solver has won under `rules`: a listed one the player has not played
        (picked here, no search), else one the worker finds, else a listed one again.
        Raises NoWinnableDeal, ComputerBusy."""
        try:
            listed = winnable_numbers(rules)
        except (OSError, ValueError) as error:
            log.error("the list of winnable deals cannot be read: %s", error)
            raise NoWinnableDeal(str(error)) from error
        fresh = [number for number in listed if number not in played]
        if fresh:
            return DealCode(rules, number=secrets.choice(fresh))
        job = self._submit(winnable_deal_job, rules.to_dict(), sorted(played))
        number = await self._wait(job)
        if number is None:
            if not listed:
                raise NoWinnableDeal(f"none found for {rules.token}")
            number = secrets.choice(listed)  # every listed deal played: one of them again
        return DealCode(rules, number=number)
