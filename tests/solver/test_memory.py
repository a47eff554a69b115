"""The solver's memory budget: the compiled core stops a search that would hold more than
`Budget.memory` bytes a thread, and says "unknown" as when time or nodes run out."""

from __future__ import annotations

import pytest

from app.engine import DealCode, Position, Rules
from app.solver import Budget, Verdict
from app.solver.board import Problem
from app.solver.hint import HINT_BUDGET, SEARCH_MEMORY, STILL_WINNABLE_BUDGET
from app.solver.search import Solver

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
    """App draw 1 with three passes, deal 22: the depth-first path runs tens of thousands
    of moves deep (about 2 KB a node); 500 000 nodes held 1.1 GiB before the budget."""
    code = DealCode.parse("CF1-D1P3-AAAAAAA")
    position = Position.deal(DealCode(code.rules, number=22).deck)
    for budget in (HINT_BUDGET, STILL_WINNABLE_BUDGET):
        assert budget.memory == SEARCH_MEMORY
        _, _, peak = search(position, code.rules, budget)
        assert peak <= SEARCH_MEMORY


def test_a_memory_budget_is_a_number_of_bytes() -> None:
    with pytest.raises(ValueError, match="memory"):
        Budget(memory=0)
