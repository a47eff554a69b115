"""The last pass as a closed game (`Problem.closed_game_lost`), with the reserve empty or with
a few reserve cards left: sound, the same in the core, and what it proves."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from app.engine import DealCode, Position, Rules, apply_move
from app.solver import Budget, Verdict
from app.solver import search as search_module
from app.solver.board import (
    CLOSED_RESERVE,
    CLOSED_RESERVE_DRAW_1,
    COLUMNS,
    Foundations,
    Problem,
    State,
    _breaks,
    _runs_held,
    _runs_to_hold,
)
from app.solver.search import Solver

from .helpers import every_rules, every_state, small_position
from .test_columns_hold import COUNTED, _hold_sample, solved_alike
from .test_core import core_of, last_pass_walks


def _bare_walks(
    token: str, deals: int | list[int], every: int = 8, reserve: int = 0
) -> list[tuple[Problem, list[State]]]:
    """Last-pass states with at most `reserve` reserve cards left (by default none), around
    the winning lines of deals under `token` (those of the first `deals`, or of the deals
    listed, won within 300,000 nodes): every `every`-th such state of the line, its children
    and their children."""
    rules = DealCode.parse(f"CF1-{token}-AAAAAAA").rules
    out = []
    for number in range(deals) if isinstance(deals, int) else deals:
        position = Position.deal(DealCode(rules, number=number).deck)
        problem = Problem.of(position, rules)
        solution = Solver(problem).solve_position(position, Budget(nodes=300_000, seconds=600))
        states = []
        here = position
        for played, move in enumerate(solution.line):
            here = apply_move(here, rules, move)
            state = problem.settle(problem.state_of(here))
            if here.won or state[5] < (rules.passes or 0) or state[3] > reserve or played % every:
                continue
            states.append(state)
            for _, _, child in problem.moves(state):
                child = problem.settle(child)
                states.append(child)
                states += [problem.settle(c) for _, _, c in problem.moves(child)]
        out.append((problem, states))
    return out


# Found by a sweep (seeds 0-700 of `_hold_sample`, every state of the positions with at most
# 3,000, the engine's verdict for each; no state the test proved lost was winnable, and the
# core always agreed): 59 and 178 hold winnable and lost states the test tells apart, the
# others mostly lost ones it proves.
SEEDS = [59, 178, 37, 73, 134]


class _Tighter(Problem):
    """The closed game with one run fewer than the columns may be in: wrong."""

    def _fits(self, held: int, room: int) -> bool:
        return super()._fits(held, room - 1)


def _judged(
    rules: Rules, position: Position, mutant: type[Problem], limit: int, reserve_left: bool = False
) -> tuple[int, int, int]:
    """Every state reachable from `position` (at most `limit`; only those with reserve cards
    left if `reserve_left`), each known won or lost by the engine's own moves: asserts that
    the states the closed game proves lost are lost and that the core proves the same ones.
    Gives how many it proved lost, how many were winnable, and how many winnable ones the
    `mutant` (a wrong closed game) proves lost."""
    problem = Problem.of(position, rules)
    wrong_game = mutant(rules, problem.reserve, problem.start_rank, problem.base_suit)
    core = core_of(problem)
    fired = wrong = winnable_seen = 0
    for here, winnable in every_state(position, rules, limit=limit):
        state = problem.state_of(here)
        if reserve_left and not state[3]:
            continue
        lost = problem.closed_game_lost(state)
        assert core.closed_game_lost(state) is lost
        if lost:
            assert not winnable, (rules.token, here)
            fired += 1
        winnable_seen += winnable
        wrong += winnable and wrong_game.closed_game_lost(state)
    return fired, winnable_seen, wrong


def test_the_closed_game_proves_only_lost_states() -> None:
    """Every state reachable from small positions of the rule sets where it runs, each known
    won or lost by the engine's own moves: the states the closed game proves lost are lost,
    the core proves the same ones, and with one run fewer (`_Tighter`) it would prove
    winnable states lost (so this test can fail)."""
    counts = [_judged(*_hold_sample(seed), _Tighter, limit=3_000) for seed in SEEDS]
    fired, winnable_seen, wrong = (sum(column) for column in zip(*counts, strict=True))
    assert fired > 500 and winnable_seen > 500
    assert wrong > 50


# The rule sets with limited passes other than app draw 3's (`_hold_sample` covers those).
OTHERS = [
    rules
    for rules in every_rules()
    if rules.passes is not None and not (rules.draw == 3 and rules.foundation_to_tableau)
]


def _closed_sample(seed: int, out: tuple[int, int] = (12, 22)) -> tuple[Rules, Position]:
    rules = OTHERS[seed % len(OTHERS)]
    rng = random.Random(f"closed/{seed}")
    position = small_position(
        rng,
        rules,
        out=rng.randint(*out),
        reserve=rng.randint(0, 2),
        suits=rng.randint(2, 4),
        trap=1.0,
    )
    return rules, position


# Found by a sweep (seeds 0-150 of `_closed_sample`, and 0-1,500 with 8-14 cards out for
# app draw 1, every state of the positions with at most 3,000, the engine's verdict for
# each: no state the test proved lost was winnable, and the core always agreed): positions
# of draw 1 with cards back from the foundations (whole columns, any run) with winnable and
# lost states that the closed game tells apart.
CLOSED_SEEDS = [
    ("D1P2TWEW", 405, (12, 22)),
    ("D1P1EW", 1445, (8, 14)),
    ("D1P1EW", 509, (8, 14)),
]


@pytest.mark.parametrize(("token", "seed", "out"), CLOSED_SEEDS)
def test_the_closed_game_proves_only_lost_states_under_draw_1(
    token: str, seed: int, out: tuple[int, int]
) -> None:
    """As the test above, under draw 1 with cards back from the foundations (app draw 1
    with three passes): the states it proves lost are lost, the core proves the same ones,
    and with one run fewer it would prove winnable states lost."""
    rules, position = _closed_sample(seed, out)
    assert rules.token == token
    assert Problem.of(position, rules).plays_closed_game
    fired, _, wrong = _judged(rules, position, _Tighter, limit=3_000)
    assert fired > 0 and wrong > 0


@pytest.mark.parametrize(("token", "seed"), [("D1P1TWF0", 19), ("D3P1TWF0A1", 128)])
def test_the_closed_game_stays_out_of_classic_and_skill(token: str, seed: int) -> None:
    """Without cards back from the foundations it does not run (it cost more than it cut
    there): positions with states it would prove lost, none proved, by either searcher."""
    rules, position = _closed_sample(seed)
    assert rules.token == token
    problem = Problem.of(position, rules)
    assert not problem.plays_closed_game
    core = core_of(problem)
    states = [problem.state_of(here) for here, _ in every_state(position, rules, limit=3_000)]
    bare = [
        state for state in states if state[3] == 0 and state[1] and state[5] >= (rules.passes or 0)
    ]
    assert any(problem._closed_lost(s[1], s[2], s[4], COLUMNS + _breaks(s[0])) for s in bare)
    assert not any(problem.closed_game_lost(s) or core.closed_game_lost(s) for s in states)


def test_the_core_plays_the_closed_game_like_python() -> None:
    """State by state on last-pass walks through deals of the three-pass rule sets where it
    runs (app draw 3 and draw 1; and of classic and skill, where it never does), the core
    gives Python's answer, asked twice (the second from its table)."""
    cases = []
    # Deals won in the last pass with the reserve empty (C3P3 and S3P3 lose most deals).
    won = {"D3P3": 3, "D1P3": 3, "C3P3": [40, 54], "S3P3": [40, 54], "C1P3": 3, "S1P3": 3}
    for token, deals in won.items():
        cases += _bare_walks(token, deals, every=12 if token == "D3P3" else 24)
        cases += last_pass_walks(token, deals=3)
    answers: dict[str, list[bool]] = {}
    for problem, states in cases:
        core = core_of(problem)
        told = answers.setdefault(problem.rules.token, [])
        for state in states:
            told.append(problem.closed_game_lost(state))
            assert core.closed_game_lost(state) is told[-1]
            assert core.closed_game_lost(state) is told[-1]
    assert answers["D3P3"].count(True) >= 20 and answers["D3P3"].count(False) >= 100
    assert answers["D1P3"].count(False) >= 100
    assert not any(answers["C3P3"] + answers["S3P3"] + answers["C1P3"] + answers["S1P3"])


@pytest.mark.parametrize(("token", "number"), [("D3P3", 40), ("D1P3", 11), ("D1P3", 8)])
def test_the_core_searches_node_for_node_like_python_where_the_closed_game_cuts(
    token: str, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """App draw 3 three-pass deal 40 and app draw 1 deals 11 and 8, won within the first run
    with the closed game proving last-pass states lost on the way: the core enters the very
    states the Python search does. (Deal 8 was deal 30 until `Problem.ends_game_lost`, with
    which deal 30's line meets no state the closed game proves lost.)"""
    nodes = search_module.Solver.FIRST_RUN_NODES
    core = solved_alike(token, number, nodes, "closed_game_lost", monkeypatch)
    assert core.verdict is Verdict.WON


def test_app_draw_3_deal_66_is_proved_lost_in_few_nodes() -> None:
    """App draw 3 with three passes, deal 66: proved unwinnable in 3.8 million nodes (one
    thread) before the closed game, in under a million now."""
    rules = DealCode.parse("CF1-D3P3-AAAAAAA").rules
    position = Position.deal(DealCode(rules, number=66).deck)
    solution = Solver(Problem.of(position, rules)).solve_position(
        position, Budget(nodes=1_000_000, seconds=600)
    )
    assert solution.verdict is Verdict.UNWINNABLE


def _reserve_sample(
    seed: int, hard: bool, among: list[Rules] = COUNTED, tag: str = "closed-reserve"
) -> tuple[Rules, Position]:
    """A small position with up to five reserve cards under a rule set where the closed game
    runs (`among`): `hard` ones have more cards out and more often a trap (mostly lost)."""
    rules = among[seed % len(among)]
    rng = random.Random(f"{tag}/{seed}")
    if hard:
        out, suits, trap = rng.randint(14, 24), rng.randint(3, 4), 0.5
    else:
        out, suits, trap = rng.randint(10, 18), rng.randint(2, 4), 0.3
    return rules, small_position(rng, rules, out=out, reserve=5, suits=suits, trap=trap)


# Found by a sweep (seeds 0-150 hard and 0-300 easy, every state of the positions with at
# most 4,000, each known won or lost by the engine's own moves; no state the test proved
# lost was winnable, and the core always agreed): the hard ones hold lost states the test
# proves with reserve cards left, the easy ones winnable states that `_UpOnly` proves lost.
RESERVE_SAMPLES = [(38, True), (79, True), (119, True), (22, False), (131, False)]


class _UpOnly(Problem):
    """The closed game whose reserve top only ever goes up, never into the columns: wrong."""

    def _top_leaves(self, found: Foundations, top: int, into: bool = True) -> list[Foundations]:
        ways = super()._top_leaves(found, top, into)
        return ways[:1] if len(ways) == 2 else []


@pytest.mark.parametrize("seed,hard", RESERVE_SAMPLES)
def test_the_core_searches_small_positions_like_python_with_the_reserve_game(
    seed: int, hard: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The small positions above, solved by the core and by Python: the same verdict (the
    engine's) in the same nodes."""
    _core_searches_like_python(*_reserve_sample(seed, hard), monkeypatch)


def _core_searches_like_python(
    rules: Rules, position: Position, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The position solved by the core and by Python: the same verdict (the engine's) in
    the same nodes."""
    winnable = any(w for _, w in every_state(position, rules, limit=4_000)[:1])
    budget = Budget(nodes=200_000, seconds=120)
    core = Solver(Problem.of(position, rules)).solve_position(position, budget)
    monkeypatch.setenv("CANFIELD_SOLVER", "python")
    reference = Solver(Problem.of(position, rules)).solve_position(position, budget)
    assert (core.verdict, core.nodes) == (reference.verdict, reference.nodes)
    assert core.verdict is (Verdict.WON if winnable else Verdict.UNWINNABLE)


# The rule sets of app draw 1 with a pass limit (any run moves or another tableau mode, cards
# back from the foundations): the reserve's closed game runs there too.
DRAW_1 = [
    rules
    for rules in every_rules()
    if rules.passes is not None and rules.draw == 1 and rules.foundation_to_tableau
]


def _draw_1_reserve_sample(seed: int, hard: bool) -> tuple[Rules, Position]:
    """As `_reserve_sample`, under draw 1 with cards back from the foundations."""
    return _reserve_sample(seed, hard, DRAW_1, "closed-reserve-1")


# Found by a sweep (seeds 0-200 hard and 0-300 easy, every state of the positions with at
# most 4,000, each known won or lost by the engine's own moves; no state the test proved
# lost was winnable, and the core always agreed): the hard ones hold lost states the test
# proves with reserve cards left (none of them before it ran under draw 1), the easy ones
# winnable states that `_UpOnly` proves lost.
DRAW_1_RESERVE_SAMPLES = [
    (198, True),
    (96, True),
    (60, True),
    (78, True),
    (15, False),
    (83, False),
    (86, False),
    (151, False),
]


@pytest.mark.parametrize(
    ("sample", "samples", "least"),
    [
        (_reserve_sample, RESERVE_SAMPLES, (60, 100, 50)),
        (_draw_1_reserve_sample, DRAW_1_RESERVE_SAMPLES, (300, 40, 15)),
    ],
    ids=["draw 3", "draw 1"],
)
def test_the_closed_game_with_reserve_cards_left_proves_only_lost_states(
    sample: Callable[[int, bool], tuple[Rules, Position]],
    samples: list[tuple[int, bool]],
    least: tuple[int, int, int],
) -> None:
    """Every state with reserve cards left reachable from small positions (under draw 3,
    and under draw 1: the waste a pile in the last pass, each stock card reached by drawing
    the ones before it onto it), each known won or lost by the engine's own moves: the
    states the closed game proves lost are lost, the core proves the same ones, and if the
    reserve's top could not go into the columns (`_UpOnly`) it would prove winnable states
    lost (so this test can fail)."""
    counts = [
        _judged(*sample(seed, hard), _UpOnly, limit=4_000, reserve_left=True)
        for seed, hard in samples
    ]
    fired, winnable_seen, wrong = (sum(column) for column in zip(*counts, strict=True))
    assert fired > least[0] and winnable_seen > least[1]
    assert wrong > least[2]


@pytest.mark.parametrize("seed,hard", DRAW_1_RESERVE_SAMPLES[:2] + DRAW_1_RESERVE_SAMPLES[-2:])
def test_the_core_searches_small_draw_1_positions_like_python_with_the_reserve_game(
    seed: int, hard: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some of the draw 1 small positions above, solved by the core and by Python: the same
    verdict (the engine's) in the same nodes."""
    _core_searches_like_python(*_draw_1_reserve_sample(seed, hard), monkeypatch)


@pytest.mark.parametrize(
    ("token", "reserve", "deals", "every"),
    [("D3P3", CLOSED_RESERVE, 4, 16), ("D1P3", CLOSED_RESERVE_DRAW_1, 8, 4)],
)
def test_the_core_plays_the_closed_game_with_reserve_cards_left_like_python(
    token: str, reserve: int, deals: int, every: int
) -> None:
    """State by state around the winning lines of app draw 3 and draw 1 three-pass deals,
    with up to `CLOSED_RESERVE` (draw 3) or `CLOSED_RESERVE_DRAW_1` reserve cards left, the
    core gives Python's answer, asked twice."""
    answers = []
    for problem, states in _bare_walks(token, deals=deals, every=every, reserve=reserve):
        core = core_of(problem)
        for state in states:
            if not state[3]:
                continue
            answers.append(problem.closed_game_lost(state))
            assert core.closed_game_lost(state) is answers[-1]
            assert core.closed_game_lost(state) is answers[-1]
    assert answers.count(True) >= 20 and answers.count(False) >= 15


def test_the_core_s_table_tells_problems_apart_and_answers_as_before_once_grown() -> None:
    """Last-pass states of two app draw 3 three-pass deals, with up to `CLOSED_RESERVE`
    reserve cards left, asked in turn of the core in one thread (the thread's table keeps
    a problem's number in place of its salt, and states of both deals share talon
    positions and counts), then again after a beam has grown the thread's table
    (`closed_grow`): Python's answer each time."""
    # every tenth state of the lines: the lines found since `Problem.ends_game_lost` are shorter
    walks = _bare_walks("D3P3", deals=[2, 1], every=10, reserve=CLOSED_RESERVE)
    (one, first), (two, second) = walks
    pairs = list(zip(first[::4], second[::12], strict=False))
    assert len(pairs) >= 200
    answers = []
    for grown in (False, True):
        if grown:
            code, _, nodes = core_of(one).beam(first[0], 1, 1)
            assert (code, nodes) == (0, 1)
        for ours, theirs in pairs:
            for problem, state in ((one, ours), (two, theirs)):
                answers.append(problem.closed_game_lost(state))
                assert core_of(problem).closed_game_lost(state) is answers[-1]
    assert answers.count(True) >= 10 and answers.count(False) >= 10


def test_runs_held_counts_as_the_flow_does() -> None:
    """`_runs_held` (the closed games' quick count) gives `_runs_to_hold(cards, cards)` on
    random card sets of every density, the empty and the full deck."""
    rng = random.Random("runs held")
    sets = [0, (1 << 52) - 1]
    for _ in range(20_000):
        density = rng.random()
        sets.append(sum(1 << card for card in range(52) if rng.random() < density))
    for cards in sets:
        assert _runs_held(cards) == _runs_to_hold(cards, cards), hex(cards)
