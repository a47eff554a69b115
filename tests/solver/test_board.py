"""The solver's own move generator agrees with the engine's rules, under every rule set."""

from __future__ import annotations

import random

import pytest

from app.engine import DealCode, Game, Rules
from app.solver.board import Problem, Techniques

from .helpers import (
    canonical,
    engine_step_results,
    every_rules,
    rules_id,
    small_position,
)

EVERY_RULES = every_rules()


def solver_step_results(problem: Problem, position_state: object) -> set[object]:
    state = problem.state_of(position_state)  # type: ignore[arg-type]
    return {
        canonical(problem.position_of(problem.settle(child)), problem.rules)
        for _, _, child in problem.moves(state)
    }


def assert_same_steps(position: object, rules: Rules) -> None:
    problem = Problem.of(position, rules, Techniques(safe_moves=False))  # type: ignore[arg-type]
    ours = solver_step_results(problem, position)
    theirs = engine_step_results(position, rules)  # type: ignore[arg-type]
    # A whole column moved to an empty column changes nothing; the solver skips it.
    here = canonical(position, rules)  # type: ignore[arg-type]
    assert ours - {here} == theirs - {here}


@pytest.mark.parametrize("rules", EVERY_RULES, ids=rules_id)
def test_steps_match_the_engine_along_random_games(rules: Rules) -> None:
    rng = random.Random(rules.token)
    game = Game(DealCode(rules, number=rng.randrange(10**6)))
    for _ in range(40):
        assert_same_steps(game.position, rules)
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))


@pytest.mark.parametrize("rules", EVERY_RULES, ids=rules_id)
def test_steps_match_the_engine_in_small_positions(rules: Rules) -> None:
    rng = random.Random("small" + rules.token)
    for _ in range(15):
        assert_same_steps(small_position(rng, rules, rng.randint(4, 12)), rules)


def test_a_state_converts_back_to_the_same_position() -> None:
    rules = Rules()
    game = Game(DealCode(rules, number=63))
    for move in ("draw", "draw"):
        game.play(move)
    problem = Problem.of(game.position, rules)
    assert problem.position_of(problem.state_of(game.position)) == game.position


def test_a_reserve_from_another_deal_is_refused() -> None:
    rules = Rules()
    problem = Problem.of(Game(DealCode(rules, number=1)).position, rules)
    with pytest.raises(ValueError, match="reserve"):
        problem.state_of(Game(DealCode(rules, number=2)).position)
