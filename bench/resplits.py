"""How many of the states a search enters hold the same runs as others, split differently.

    .venv/bin/python bench/resplits.py [--rules D3P3] [--deals 6,12,24] [--nodes 300000]
    .venv/bin/python bench/resplits.py --rules D1P3 --deals 9,22,28

Under app rules (any run moves, an empty column takes any card) with the reserve empty,
the search enters many states whose columns hold the same cards in the same runs, only
split or stacked differently over the four columns. This runs the Python search (the
reference; about 3,000-8,000 nodes a second) on each deal, records every state it enters,
and counts, among them:
- keys: the distinct transposition keys (`Problem.key`);
- merged: the distinct keys once every column whose first card fits on another column's
  last card (not one brought back from its foundation) is moved onto it, again and again
  (`merged`): states that reach one another by such moves and back, as the search could
  give one key if it then searched every move any of them has;
- pieces: the distinct keys once the columns are cut wherever the card under the cut cannot
  go up (`pieces`): the same runs in any arrangement, reachable or not, so only a bound on
  what any key for re-split runs could merge;
- reused: states entered when a state of the same merged key had been proved lost already,
  which a table of proofs by merged key (sound: such states have the same fate) would have
  skipped.
Each ratio is keys over the smaller count. Figures depend on the node budget (the deep
last-pass states come late), not on the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from app.engine import DealCode, Position
from app.engine.rules import decode_token
from app.solver import search
from app.solver.board import _BIT, _CARD_BITS, _MARK_SHIFT, _PARENTS, Problem, State
from app.solver.search import Budget, Solver

Canonical = tuple[Any, ...]


def merged(problem: Problem, state: State) -> Canonical | None:
    """The key with every column moved onto the last card it fits on (None: the reserve has
    cards or a talon card is marked). Each move is legal and changes nothing else, and its
    reverse (the run back into the emptied column) is too: the card it uncovers was a last
    card of the settled state, so settling sends nothing up."""
    columns, _, _, reserve_count, _, _, protected = state
    if reserve_count or protected >> _MARK_SHIFT:
        return None
    cols = list(columns)
    while True:
        best: tuple[int, int, int, int] | None = None
        for i, moved in enumerate(cols):
            for j, onto in enumerate(cols):
                if moved and onto and i != j:
                    last = onto[-1]
                    if last in _PARENTS[moved[0]] and not protected & _CARD_BITS & _BIT[last]:
                        candidate = (moved[0], last, i, j)
                        best = candidate if best is None else min(best, candidate)
        if best is None:
            return (*sorted(cols), *problem.key(state)[4:])
        _, _, i, j = best
        cols[j] += cols[i]
        cols[i] = b""


def pieces(problem: Problem, state: State) -> Canonical | None:
    """The key with the columns cut into runs wherever the card under the cut cannot go up."""
    columns, _, _, reserve_count, found, _, protected = state
    if reserve_count or protected >> _MARK_SHIFT:
        return None
    rel = problem.rel
    parts = []
    for col in columns:
        start = 0
        for k in range(1, len(col)):
            if found[col[k - 1] // 13] != rel[col[k - 1]]:
                parts.append(col[start:k])
                start = k
        if col:
            parts.append(col[start:])
    return (tuple(sorted(parts)), *problem.key(state)[4:])


def measure(token: str, number: int, nodes: int) -> str:
    """One deal's counts, as a line."""
    rules = decode_token(token)
    position = Position.deal(DealCode(rules, number=number).deck)
    problem = Problem.of(position, rules)
    solver = Solver(problem)
    entered: list[State] = []
    merged_of: dict[Any, Canonical] = {}
    proved: dict[Canonical, int] = {}
    reused = 0
    enter: Callable[..., Any] = search._Run._enter
    prove: Callable[[dict[Any, int], Any, int], None] = search._prove

    def entering(run: Any, state: State, key: Any, value: int, free: bool = False) -> Any:
        nonlocal reused
        entered.append(state)
        canonical = merged(problem, state)
        if canonical is not None:
            merged_of[key] = canonical
            if proved.get(canonical, value + 1) <= value:
                reused += 1
        return enter(run, state, key, value, free)

    def proving(dead: dict[Any, int], key: Any, value: int) -> None:
        canonical = merged_of.get(key)
        if canonical is not None and proved.get(canonical, value + 1) > value:
            proved[canonical] = value
        prove(dead, key, value)

    search._Run._enter = entering  # type: ignore[method-assign]
    search._prove = proving
    started = time.process_time()
    try:
        verdict, _, spent = solver._search_in_python(
            problem.state_of(position), Budget(nodes=nodes, seconds=1e9)
        )
    finally:
        search._Run._enter = enter  # type: ignore[method-assign]
        search._prove = prove
    keys = {problem.key(state) for state in entered}
    merged_keys = {merged(problem, state) or problem.key(state) for state in entered}
    piece_keys = {pieces(problem, state) or problem.key(state) for state in entered}
    empty = sum(1 for state in entered if not state[3])
    cpu = time.process_time() - started
    return (
        f"{token} deal {number}: {verdict.value} in {spent} nodes ({cpu:.0f} s CPU);"
        f" entered {len(entered)}, reserve empty {empty}; keys {len(keys)}, merged"
        f" {len(merged_keys)} ({len(keys) / len(merged_keys):.2f} x), pieces {len(piece_keys)}"
        f" ({len(keys) / len(piece_keys):.2f} x); reused {reused}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="D3P3", help="rules tokens")
    parser.add_argument("--deals", default="6,12,24", help="deal numbers, comma-separated")
    parser.add_argument("--nodes", type=int, default=300_000, help="node budget per deal")
    args = parser.parse_args(argv)
    for token in (t.strip() for t in args.rules.split(",") if t.strip()):
        for number in (int(n) for n in args.deals.split(",")):
            print(measure(token, number, args.nodes), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
