"""The computer player's jobs: run in a worker process, on plain data (a deal code and an
action log in, a small answer out); each is capped by the solver's own budgets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine import Game, Rules
from app.solver.deals import NoWinnableDealError, winnable_deal
from app.solver.hint import hint, still_winnable
from app.solver.search import Verdict

# Random deals the worker tries when a player has played every listed winnable deal
# (each within ON_DEMAND_BUDGET, 3 s): enough to find one under the presets' rules.
ON_DEMAND_ATTEMPTS = 8


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
