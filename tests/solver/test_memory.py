"""The solver's memory budget: the compiled core stops a search that would hold more than
`Budget.memory` bytes a thread, and says "unknown" as when time or nodes run out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.engine import DealCode, Position, Rules
from app.solver import Budget, Verdict
from app.solver.board import Problem
from app.solver.hint import HINT_BUDGET, SEARCH_MEMORY, STILL_WINNABLE_BUDGET
from app.solver.search import Solver

from .test_core import core_of

MiB = 1 << 20
CLASSIC = Rules.preset_named("classic", draw=3)
# Classic deal 263 cannot be won, and 300 000 nodes do not prove it: the search grows
# its tables all the way.
SLOW = Position.deal(DealCode(CLASSIC, number=263).deck)


def search(position: Position, rules: Rules, budget: Budget) -> tuple[Verdict, int, int]:
    """(verdict, nodes, peak bytes) of one search in the compiled core."""
    solver = Solver(Problem.of(position, rules))
    core = solver._core
    assert core is not None, "the compiled core is built by make setup"
    solution = solver.solve_position(position, budget)
    return solution.verdict, solution.nodes, core.peak_bytes


@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_stops_at_its_memory_and_is_unknown(threads: int) -> None:
    free = search(SLOW, CLASSIC, Budget(nodes=300_000, seconds=120, threads=threads))
    assert free[0] is Verdict.UNKNOWN and free[1] >= 300_000
    assert free[2] > 12 * MiB  # so a 4 MiB budget must stop it early
    verdict, nodes, peak = search(
        SLOW, CLASSIC, Budget(nodes=300_000, seconds=120, threads=threads, memory=4 * MiB)
    )
    assert verdict is Verdict.UNKNOWN  # not a MemoryError
    assert nodes < free[1]
    # Each thread keeps to the budget; with two, the shared table's growth as much again.
    assert peak <= 4 * MiB * (1 if threads == 1 else 3)


def test_a_search_within_its_memory_is_not_changed_by_it() -> None:
    rules = Rules.preset_named("app", draw=3)
    position = Position.deal(DealCode(rules, number=0).deck)
    big = search(position, rules, Budget(nodes=200_000, seconds=120))
    small = search(position, rules, Budget(nodes=200_000, seconds=120, memory=big[2] * 2))
    assert big[0] is not Verdict.UNKNOWN
    assert small[:2] == big[:2]  # the same verdict in the same nodes


def test_a_hint_on_a_position_whose_path_runs_deep_keeps_to_its_memory() -> None:
    """App draw 1 with three passes, deal 22: the depth-first path runs hundreds of
    thousands of moves deep; 500 000 nodes held 1.1 GiB before the budget (and before the
    path's frames nearest the root gave up their children). The still-winnable check for
    the hint's seconds (it now runs its own ten out, within its memory)."""
    code = DealCode.parse("CF1-D1P3-AAAAAAA")
    position = Position.deal(DealCode(code.rules, number=22).deck)
    for budget in (HINT_BUDGET, STILL_WINNABLE_BUDGET):
        assert budget.memory == SEARCH_MEMORY
        _, _, peak = search(position, code.rules, replace(budget, seconds=HINT_BUDGET.seconds))
        assert peak <= SEARCH_MEMORY


def test_a_memory_budget_is_a_number_of_bytes() -> None:
    with pytest.raises(ValueError, match="memory"):
        Budget(memory=0)


def deep_search(token: str, number: int, nodes: int, path_children: int) -> tuple[object, int]:
    """((code, steps, nodes), peak bytes) of one core search from a deal, one thread,
    its path holding about `path_children` children."""
    rules = DealCode.parse(f"CF1-{token}-AAAAAAA").rules
    position = Position.deal(DealCode(rules, number=number).deck)
    problem = Problem.of(position, rules)
    core = core_of(problem)
    core.path_children = path_children
    assert core.path_children == path_children
    return core.search(problem.state_of(position), nodes, 600.0), core.peak_bytes


@pytest.mark.parametrize(
    ("token", "number", "nodes", "verdict"),
    [
        ("D1P3", 4, 50_000, 1),
        ("D1P3", 14, 50_000, 1),
        ("D1P3", 22, 30_000, 0),
        ("C1P3", 24, 80_000, 2),
    ],
)
def test_a_path_that_gives_up_its_children_searches_the_same(
    token: str, number: int, nodes: int, verdict: int
) -> None:
    """The frames nearest the root give up their children when the path holds more than
    `path_children`, and make them again when the search comes back (in the shuffled runs
    too, from the random state they were ordered with): the same nodes, verdict and steps
    as a path that keeps them all. App draw 1 with three passes: deals 4 and 14 won past
    the first runs, along paths thousands of moves deep; 22 unknown, its path deeper;
    classic draw 1 with three passes, deal 24: unwinnable."""
    default = core_of(Problem.of(Position.deal(DealCode(CLASSIC, number=0).deck), CLASSIC))
    assert default.path_children == 1 << 18
    kept, kept_peak = deep_search(token, number, nodes, 1 << 30)
    shed, shed_peak = deep_search(token, number, nodes, 8)
    assert shed == kept
    assert shed[0] == verdict  # the core's code: 0 unknown, 1 won, 2 unwinnable
    if token == "D1P3":
        assert shed_peak < kept_peak


def test_a_path_a_million_moves_deep_holds_a_few_hundred_bytes_a_move() -> None:
    """App draw 1 with three passes, deal 22, one thread: its path was 1.37 million moves
    deep at 1.38 million nodes (2.4 GiB, past the command line's 3 GiB a thread soon after),
    with 49 children a frame; at 200 000 nodes it held 286 MiB, now 38."""
    (code, _, spent), peak = deep_search("D1P3", 22, 200_000, 1 << 18)
    assert (code, spent) == (0, 200_000)
    assert peak < 80 * MiB
    with pytest.raises(ValueError, match="path_children"):
        core_of(Problem.of(SLOW, CLASSIC)).path_children = 0
