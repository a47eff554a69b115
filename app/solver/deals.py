"""Winnable deals: the shipped lists of deal numbers the solver has won, and more on demand.

`data/winnable.json` is written by `scripts/make_winnable_deals.py` (fixed first
deal numbers and a node budget, so anyone can regenerate the same file). It
holds one list per preset and draw count, for the preset's own play options:
`app-d3`, `app-d1`, `classic-d3`, `classic-d1`, `skill-d3`, `skill-d1` (skill's
level Easy: unlimited passes; Hard's three passes have no list).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Container
from functools import cache
from importlib.resources import files
from typing import Any

from app.engine import PRESETS, DealCode, Position, Rules
from app.engine.codes import MAX_DEAL_NUMBER
from app.solver.search import Budget, solve

# The options that change which deals can be won; the others (undo, scoring) do not.
PLAY_OPTIONS = (
    "draw",
    "passes",
    "tableau_moves",
    "empty_column",
    "foundation_to_tableau",
    "autocomplete",
)
ON_DEMAND_BUDGET = Budget(nodes=200_000, seconds=3.0, memory=256 << 20)


class NoWinnableDealError(RuntimeError):
    """No unused winnable deal was found within the attempts allowed."""


def list_name(rules: Rules) -> str | None:
    """The name of the shipped list for `rules` (`skill-d1`...), or None if there is none."""
    names = [rules.preset, *(name for name in PRESETS if name != rules.preset)]
    for name in names:
        base = Rules.preset_named(name, draw=rules.draw)
        if all(getattr(rules, option) == getattr(base, option) for option in PLAY_OPTIONS):
            return f"{name}-d{rules.draw}"
    return None


@cache
def load_lists() -> dict[str, tuple[int, ...]]:
    """Every shipped list by name; raises ValueError if the data file is malformed."""
    text = files("app.solver").joinpath("data", "winnable.json").read_text(encoding="utf-8")
    data: Any = json.loads(text)
    lists = data.get("lists") if isinstance(data, dict) else None
    if not isinstance(lists, dict):
        raise ValueError("winnable.json has no 'lists' object")
    out: dict[str, tuple[int, ...]] = {}
    for name, numbers in lists.items():
        if not isinstance(numbers, list) or not all(
            isinstance(n, int) and 0 <= n <= MAX_DEAL_NUMBER for n in numbers
        ):
            raise ValueError(f"winnable.json list {name!r} is not a list of deal numbers")
        out[name] = tuple(numbers)
    return out


def winnable_numbers(rules: Rules) -> tuple[int, ...]:
    """The shipped deal numbers verified winnable under `rules` (empty if no list fits)."""
    name = list_name(rules)
    return load_lists().get(name, ()) if name else ()


def winnable_deal(
    rules: Rules,
    used: Container[int] | Callable[[int], bool] = (),
    budget: Budget | None = None,
    rng: random.Random | None = None,
    attempts: int = 30,
) -> int:
    """A deal number the solver has won under `rules`, not in `used`.

    Picks at random among the unused numbers of the shipped list; when those run
    out (or no list fits the rules), solves random deal numbers, each within
    `budget`, up to `attempts` of them. `used` is a set of deal numbers or a
    predicate. Raises NoWinnableDealError when nothing was found.
    """
    is_used: Callable[[int], bool] = used if callable(used) else used.__contains__
    rng = rng or random.Random()
    fresh = [n for n in winnable_numbers(rules) if not is_used(n)]
    if fresh:
        return rng.choice(fresh)
    for _ in range(attempts):
        number = rng.randint(0, MAX_DEAL_NUMBER)
        if is_used(number):
            continue
        code = DealCode(rules, number=number)
        if solve(Position.deal(code.deck), rules, budget or ON_DEMAND_BUDGET).won:
            return number
    raise NoWinnableDealError(
        f"no unused winnable deal found for rules {rules.token} in {attempts} attempts"
    )
