"""Restarts: many short shuffled runs under draw 1 with a pass limit or skill moves
(`search.short_restarts`), one opening at a time (`Core.opening`), and two threads."""

from __future__ import annotations

import pytest

from app.engine import DealCode, Position, Rules
from app.engine.rules import decode_token
from app.solver import Budget, Verdict, solve
from app.solver import search as search_module
from app.solver.board import Problem
from app.solver.search import Solver, luby, short_restarts

from .helpers import every_state, replays_to_a_win
from .test_search import check, sample


def _deal(token: str, number: int) -> tuple[Rules, Position]:
    rules = decode_token(token)
    return rules, Position.deal(DealCode(rules, number=number).deck)


def test_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    assert luby(31) == 16 and luby(63) == 32


@pytest.mark.parametrize(
    ("token", "short"),
    [
        ("D1P3", True),
        ("C1P3", True),
        ("S1P3", True),
        ("S1", True),
        ("D3P3", False),
        ("S3", False),
        ("D1", False),
        ("C1", False),
    ],
)
def test_draw_1_restarts_short_with_a_pass_limit_or_skill_moves(token: str, short: bool) -> None:
    rules, position = _deal(token, 0)
    assert short_restarts(Problem.of(position, rules)) is short


def _shuffled_limits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The node limits the shuffled runs of the Python searches get, from now on."""
    limits: list[int] = []
    advance = search_module._Run.advance

    def counted(self: search_module._Run, limit: int, deadline: float) -> object:
        if self._rng is not None:
            limits.append(limit)
        return advance(self, limit, deadline)

    monkeypatch.setattr(search_module._Run, "advance", counted)
    return limits


@pytest.mark.parametrize(("token", "number"), [("D1P3", 28), ("D1", 9)])
def test_the_shuffled_share_of_each_round_goes_to_runs_of_luby_lengths(
    token: str, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixed-order run gets 2,000, 4,000 and 8,000 nodes, and after each the shuffled
    runs half as many: under draw 1 with a pass limit split into runs of 1,000 nodes times
    luby(seed) (the last cut to the share), elsewhere one run."""
    monkeypatch.setenv("CANFIELD_SOLVER", "python")
    limits = _shuffled_limits(monkeypatch)
    rules, position = _deal(token, number)
    solution = solve(position, rules, Budget(nodes=21_001, seconds=600))  # the root and 21,000
    assert solution.verdict is Verdict.UNKNOWN and solution.nodes == 21_001
    if token == "D1P3":
        assert limits == [1_000, 1_000, 1_000, 1_000, 1_000, 2_000]
    else:
        assert limits == [1_000, 2_000, 4_000]


@pytest.mark.parametrize(
    ("token", "seed"),
    [
        ("D1P1TWEW", 16),
        ("D1P1TWEW", 57),
        ("D1P2EW", 29),
        ("D1P2TWEWF0", 34),
        ("S1", 5),
        ("S1P2", 20),
        ("S1P2", 38),
    ],
)
def test_every_state_keeps_its_verdict_with_many_short_restarts(
    token: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every state reachable from small positions (app and classic moves, one and two
    passes; skill moves, two and unlimited passes), each known won or lost by the
    engine's own moves, searched in Python by one solver per position (its proofs kept
    from state to state, as the hint's are) with runs
    of a node or two: thousands of runs stopped part-way, whose finished components alone
    are proved lost, and every verdict right."""
    rules = DealCode.parse(f"CF1-{token}-AAAAAAA").rules
    assert short_restarts(Problem.of(sample(rules, seed), rules))
    monkeypatch.setenv("CANFIELD_SOLVER", "python")
    monkeypatch.setattr(Solver, "FIRST_RUN_NODES", 1)
    monkeypatch.setattr(Solver, "SHORT_RUN_NODES", 1)
    limits = _shuffled_limits(monkeypatch)
    budget = Budget(nodes=2_000_000, seconds=120)
    position = sample(rules, seed)
    solver = Solver(Problem.of(position, rules))
    states = every_state(position, rules, limit=20_000)
    for state, winnable in states:
        check(solver.solve_position(state, budget), state, rules, winnable)
    assert len(limits) > 150


@pytest.mark.parametrize(
    ("token", "number", "most"),
    [
        ("D1P3", 9, 300_000),
        ("D1P3", 378, 300_000),
        ("C1P3", 49, 300_000),
        ("S1P3", 430, 400_000),
    ],
)
def test_the_core_wins_by_a_short_restart_what_long_runs_left_unknown(
    token: str, number: int, most: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deals unknown at 7 million nodes with one shuffled run a round (one thread): a few of
    their shuffled openings win at once (skill draw 1 three passes, deal 430: 5 of 300
    seeds within 10,000 nodes, bench/openings.py), and hundreds of short runs find one."""
    monkeypatch.delenv("CANFIELD_SOLVER", raising=False)
    rules, position = _deal(token, number)
    solution = solve(position, rules, Budget(nodes=most, seconds=600))
    assert solution.verdict is Verdict.WON
    assert solution.nodes > Solver.FIRST_RUN_NODES  # not by the fixed-order run
    assert replays_to_a_win(position, rules, solution.line)


def _core_solver(token: str, number: int) -> tuple[Rules, Position, Solver]:
    rules, position = _deal(token, number)
    solver = Solver(Problem.of(position, rules))
    assert solver.uses_core
    return rules, position, solver


def test_an_opening_is_the_one_shuffled_run_of_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Core.opening` makes a search the one shuffled run of that seed, alone: app draw 1
    three passes, deal 378 (bench/openings.py: seeds 4, 5, 9, 12, 13 and 19 of the first
    twenty win within 10,000 nodes, 13 and 19 alone before the closed game of the last
    pass ran there); 0 gives the schedule back."""
    monkeypatch.delenv("CANFIELD_SOLVER", raising=False)
    budget = Budget(nodes=10_000, seconds=600)
    verdicts = {}
    for seed in (1, 11, 13, 19):
        rules, position, solver = _core_solver("D1P3", 378)
        assert solver._core is not None
        solver._core.opening = seed
        solution = solver.solve_position(position, budget)
        verdicts[seed] = solution.verdict
        if solution.won:
            assert replays_to_a_win(position, rules, solution.line)
        else:  # one run, to the end of the budget
            assert solution.nodes == budget.nodes
    assert verdicts == {1: Verdict.UNKNOWN, 11: Verdict.UNKNOWN, 13: Verdict.WON, 19: Verdict.WON}
    _, position, solver = _core_solver("D1P3", 378)
    assert solver._core is not None
    solver._core.opening = 13
    solver._core.opening = 0
    assert solver.solve_position(position, budget).verdict is Verdict.UNKNOWN


@pytest.mark.parametrize(
    ("token", "number", "most"), [("D1P3", 378, 300_000), ("S1P3", 430, 600_000)]
)
def test_with_two_threads_the_helper_makes_the_short_restarts(
    token: str, number: int, most: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two threads the main thread runs only the fixed order and the helper the
    restarts' shuffled runs, short ones here: they win these deals, as they do on one
    thread (`test_the_core_wins_by_a_short_restart_what_long_runs_left_unknown`)."""
    monkeypatch.delenv("CANFIELD_SOLVER", raising=False)
    rules, position, solver = _core_solver(token, number)
    solution = solver.solve_position(position, Budget(nodes=most, seconds=600, threads=2))
    assert solution.verdict is Verdict.WON
    assert replays_to_a_win(position, rules, solution.line)
