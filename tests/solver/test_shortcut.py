"""A winning line with its detours cut out: the core's `Core.shortcut` and board.py's
`_shortcut` give the same line, and it replays to a win in the engine."""

from __future__ import annotations

import pytest

from app.engine import DealCode, Position
from app.engine.rules import decode_token
from app.solver.board import Problem
from app.solver.search import _core_of, _shortcut

from .helpers import replays_to_a_win


def searched(token: str, number: int) -> tuple[Problem, Position, tuple, list]:
    """The problem, the position, its settled start and the core's winning steps."""
    rules = decode_token(token)
    position = Position.deal(DealCode(rules, number=number).deck)
    problem = Problem.of(position, rules)
    core = _core_of(problem)
    assert core is not None
    state = problem.state_of(position)
    code, steps, _ = core.search(state, 2_000_000, 60.0)
    assert code == 1
    return problem, position, problem.settle(state, cascade=False), steps


@pytest.mark.parametrize(
    ("token", "number"),
    [("D3P3", 1), ("D3P3", 2), ("D3P3", 36), ("D1P3", 8), ("D3", 5), ("D1", 3), ("C3", 2),
     ("S1P3", 1)],
)
def test_the_core_cuts_a_line_short_as_board_does(token: str, number: int) -> None:
    problem, position, start, steps = searched(token, number)
    core = _core_of(problem)
    line = core.shortcut(start, steps)
    assert line == _shortcut(problem, start, steps)
    if token in ("D3P3", "D1P3", "D3"):
        assert len(line) < len(steps)  # these lines wander: something was cut
    moves: list = []
    state = start
    for step in line:
        state = problem.play(state, step, moves)
    prefix: list = []
    problem.settle(problem.state_of(position), prefix, cascade=False)
    assert replays_to_a_win(position, problem.rules, tuple(prefix + moves))


def test_steps_that_do_not_win_are_refused() -> None:
    problem, _, start, steps = searched("D3", 5)
    core = _core_of(problem)
    with pytest.raises(ValueError, match="not a winning line"):
        core.shortcut(start, steps[:-1])
    with pytest.raises(TypeError):
        core.shortcut(start, [("draw", 1, 2)])
