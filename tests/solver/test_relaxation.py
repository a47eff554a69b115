"""The relaxed rules' search beside the search (`Problem.relaxed`): a state lost drawing one
card with unlimited passes is lost under classic draw 3 and under draw 1 with a pass limit."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine import Position, Rules
from app.solver import Budget, Verdict
from app.solver.board import Problem, Techniques
from app.solver.search import Solver

from .helpers import canonical, every_rules, every_state, shaped_position

BIG = Budget(nodes=2_000_000, seconds=120)
# The rules the relaxation runs under: whole-column moves, empty columns that take only the
# waste's card, no cards back from the foundations, no autocomplete; draw 3 with unlimited
# passes, draw 1 with one or two passes.
RELAXING = [r for r in every_rules() if Problem(r, b"", 0, 0).relaxed is not None]


def relaxing_sample(seed: int) -> tuple[Position, Rules]:
    """A small position with up to 8 reserve cards under one of the `RELAXING` rules, a
    card above a lower one of its suit in its reserve or talon."""
    rules = RELAXING[seed % len(RELAXING)]
    return shaped_position("relaxed", seed, rules, (9, 15), (3, 8), (2, 4), 1.0), rules


def stacked_sample(seed: int) -> tuple[Position, Rules]:
    """A small position of two suits under one of the `RELAXING` rules, its reserve in
    order of rank from the start rank, the lowest deepest: a reserve card above a lower one
    of its suit must leave onto a column's card or into an emptied column (and with two
    suits of one colour no card goes on it), so some states lose drawing one with
    unlimited passes too."""
    rules = RELAXING[seed % len(RELAXING)]
    dealt = shaped_position("relaxed", seed, rules, (10, 16), (4, 8), 2, 0.0)
    reserve = sorted(dealt.reserve, key=lambda card: (card.rank - dealt.start_rank) % 13)
    position = Position(
        stock=dealt.stock,
        waste=dealt.waste,
        reserve=tuple(reserve),
        foundations=dealt.foundations,
        tableau=dealt.tableau,
        pass_number=dealt.pass_number,
        start_rank=dealt.start_rank,
        base_suit=dealt.base_suit,
    )
    return position, rules


# The small positions whose every state is judged by the engine: `relaxing_sample`'s (a few
# lose under the rules' own pass limit or draw) and `stacked_sample`'s (seeds 0-139 swept:
# these have states lost drawing one with unlimited passes, some beside states won).
SAMPLES = [(relaxing_sample, seed) for seed in (0, 2, 6, 8, 9, 11, 15, 20, 23)] + [
    (stacked_sample, seed) for seed in (5, 16, 24, 42, 50, 81, 89, 98, 102, 131, 134)
]


def test_the_relaxed_rules_draw_one_with_unlimited_passes() -> None:
    assert {r.token for r in RELAXING} == {"D3TWEWF0", "D1P1TWEWF0", "D1P2TWEWF0"}
    for rules in RELAXING:
        relaxed = Problem(rules, b"", 0, 0).relaxed
        assert relaxed is not None
        assert relaxed.rules == rules.with_options(draw=1, passes=None)
        assert relaxed.relaxed is None
    classic = Rules.preset_named("classic", draw=3)
    assert Problem(classic, b"", 0, 0).relaxed is not None
    assert Problem(classic, b"", 0, 0, Techniques(relaxation=False)).relaxed is None
    for rules in (
        Rules.preset_named("classic", draw=1),
        Rules.preset_named("classic", draw=3, passes=3),
        Rules.preset_named("app", draw=3),
        Rules.preset_named("skill", draw=3),
    ):
        assert Problem(rules, b"", 0, 0).relaxed is None


def test_every_state_won_under_its_rules_is_won_under_the_relaxed_rules() -> None:
    """The relaxation's premise, judged by the engine alone: from every state of small
    positions (with lost states, under a pass limit or drawing three), some line of the
    relaxed rules wins wherever one of the rules' own does; and the relaxed rules win
    states the rules' own cannot."""
    more = 0
    for make, seed in SAMPLES:
        position, rules = make(seed)
        relaxed = Problem.of(position, rules).relaxed
        assert relaxed is not None
        won = {
            canonical(here, relaxed.rules): winnable
            for here, winnable in every_state(position, relaxed.rules, limit=40_000)
        }
        for here, winnable in every_state(position, rules, limit=40_000):
            relaxed_won = won.get(canonical(here, relaxed.rules), False)
            assert relaxed_won or not winnable, (seed, here)
            more += relaxed_won and not winnable
    assert more > 200


def test_verdicts_agree_where_the_relaxed_rules_cut_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search with its relaxed run gives the engine's verdict from every state of small
    positions: in the core, one solver a position (so that the proofs relayed serve the
    later searches); and in Python, a solver a state, without the dead-end tests (which
    decide most of these at once), its relaxed run searched to its end after the first
    node (on these positions the rules' own would end first), counting the proofs it
    relays and the verdicts it gives."""
    relayed = decided = 0
    relay = Solver._relaxed_advance

    def counted(self: Solver, run: Any, limit: int, deadline: float) -> Verdict | None:
        nonlocal relayed, decided
        proved = self._relaxed_dead
        before = len(proved) if proved is not None else 0
        verdict = relay(self, run, 100_000, deadline)  # to its end, for the test
        relayed += len(self._relaxed_dead or ()) - before
        decided += verdict is Verdict.UNWINNABLE
        return verdict

    no_dead_ends = Techniques(dead_ends=False)
    for make, seed in SAMPLES:
        position, rules = make(seed)
        problem = Problem.of(position, rules)
        states = [(problem.state_of(p), w) for p, w in every_state(position, rules, 40_000)]
        solver = Solver(problem)
        assert solver.uses_core
        for state, winnable in states:
            verdict = solver.solve_state(state, BIG).verdict
            assert verdict is (Verdict.WON if winnable else Verdict.UNWINNABLE), (seed, state)
        with monkeypatch.context() as patch:
            patch.setenv("CANFIELD_SOLVER", "python")
            patch.setattr(Solver, "FIRST_RUN_NODES", 1)
            patch.setattr(Solver, "_relaxed_advance", counted)
            for state, winnable in states:
                solver = Solver(Problem.of(position, rules, no_dead_ends))
                verdict = solver.solve_state(state, BIG).verdict
                assert verdict is (Verdict.WON if winnable else Verdict.UNWINNABLE), (seed, state)
    assert relayed > 300 and decided > 30
