"""The beam search (search.beam, the core's Core.beam, the helper thread's beams)."""

from __future__ import annotations

import pytest

from app.engine import DealCode, Position
from app.engine.rules import decode_token
from app.solver import Budget, Verdict
from app.solver.board import Problem
from app.solver.search import BEAM_WEIGHTS, Solver, _core_of, _shortcut, beam

from .helpers import replays_to_a_win


def problem_of(token: str, number: int) -> tuple[Problem, Position]:
    rules = decode_token(token)
    position = Position.deal(DealCode(rules, number=number).deck)
    return Problem.of(position, rules), position


@pytest.mark.parametrize(
    ("token", "number", "width", "max_nodes", "weights"),
    [
        ("D1P3", 393, 1000, 2_000, None),
        ("D1P3", 393, 1000, 2_000, (4, 2)),
        ("D3P3", 64, 200, 5_000, None),
        ("D3P3", 64, 200, 5_000, (1, 3)),
        ("C3", 5, 50, 10_000, None),
        ("S1P3", 7, 100, 10_000, None),
        ("D3", 3, 30, 10_000, None),
        ("C1", 2, 200, 10_000, None),
        ("C1", 2, 200, 2_000, (2, 5)),
    ],
)
def test_the_core_beam_searches_the_states_python_does(
    token: str, number: int, width: int, max_nodes: int, weights: tuple[int, int] | None
) -> None:
    """The same nodes, the same outcome and, when won, the same steps, with the rules'
    weights of cards up and reserve cards (BEAM_WEIGHTS) and with others."""
    problem, position = problem_of(token, number)
    core = _core_of(problem)
    assert core is not None
    state = problem.state_of(position)
    code, steps, nodes = core.beam(state, width, max_nodes, *(weights or ()))
    reference, python_nodes = beam(problem, state, width, max_nodes, weights=weights)
    assert nodes == python_nodes > width
    assert code == (0 if reference is None else 1)
    assert [tuple(step) for step in steps] == (reference or [])


def beam_wins(token: str, number: int, width: int, max_nodes: int) -> int:
    """The nodes of the core's beam that wins the deal, whose line (cut short as the search
    cuts it) the engine replays to a win; fails if the beam does not win."""
    problem, position = problem_of(token, number)
    core = _core_of(problem)
    assert core is not None
    state = problem.state_of(position)
    code, steps, nodes = core.beam(state, width, max_nodes)
    assert code == 1
    start = problem.settle(state, cascade=False)
    line: list = []
    for step in _shortcut(problem, start, steps, core):
        start = problem.play(start, step, line)
    assert replays_to_a_win(position, problem.rules, tuple(line))
    return nodes


def test_a_beam_s_line_wins() -> None:
    """App draw 1 with three passes, deal 393: the depth-first search left it unknown at 31
    million nodes; a beam 1,000 wide wins it in about 52,000 (100,807 before the score
    counted talon cards and passes; 51,627 with cards up 1 and reserve cards 3)."""
    nodes = beam_wins("D1P3", 393, 1000, 1_000_000)
    assert nodes < 200_000
    problem, position = problem_of("D1P3", 393)
    core = _core_of(problem)
    assert core is not None
    assert core.beam(problem.state_of(position), 100, 1_000_000)[0] == 0  # too narrow


def test_the_score_counts_the_talon_and_the_passes() -> None:
    """App draw 1 with three passes, deal 34 (unknown to the depth-first search at 7 million
    nodes): the schedule's first beam, 1,000 wide, wins it now that the score counts talon
    cards and passes (43,780 nodes); with cards up, reserve cards and empty columns alone
    the beams 1,000 and 4,000 wide lost their way and one 16,000 wide won (782,642 nodes in
    the three)."""
    assert beam_wins("D1P3", 34, 1000, 128 * 1000) < 100_000


def test_drawing_one_cards_up_weigh_little_beside_the_reserve_and_the_talon() -> None:
    """App draw 1 with three passes, deals 344 and 465, unknown to the 10 s search with cards
    up 4 and reserve cards 2 in the score (465 won by the depth-first search in 30.9
    million nodes): drawing one, the weights 1 and 3 win 344 1,000 wide (44,689 nodes)
    and 465 4,000 wide (172,991); 465's line keeps cards in the columns and empties the
    reserve and the talon first, and with 4 and 2 the beam 4,000 wide does not win it."""
    assert BEAM_WEIGHTS[1] == (1, 3)
    assert beam_wins("D1P3", 344, 1000, 128 * 1000) < 100_000
    assert beam_wins("D1P3", 465, 4000, 128 * 4000) < 350_000
    problem, position = problem_of("D1P3", 465)
    core = _core_of(problem)
    assert core is not None
    assert core.beam(problem.state_of(position), 4000, 128 * 4000, 4, 2)[0] == 0


def test_the_helper_thread_s_beams_win_what_the_runs_do_not() -> None:
    """App draw 3 with three passes, deal 83: one thread leaves it unknown at a million nodes
    (and at 7 million); with two, the helper's first beam wins it (some 40,000 of its nodes,
    while the main thread makes ten times as many)."""
    problem, position = problem_of("D3P3", 83)
    one = Solver(problem).solve_position(position, Budget(nodes=1_000_000, seconds=600))
    assert one.verdict is Verdict.UNKNOWN
    two = Solver(Problem.of(position, problem.rules)).solve_position(
        position, Budget(nodes=2_000_000, seconds=600, threads=2)
    )
    assert two.verdict is Verdict.WON
    assert replays_to_a_win(position, problem.rules, two.line)


def test_the_beam_s_width_is_checked() -> None:
    problem, position = problem_of("D3", 1)
    core = _core_of(problem)
    assert core is not None
    with pytest.raises(ValueError, match="width"):
        core.beam(problem.state_of(position), 0, 100)
