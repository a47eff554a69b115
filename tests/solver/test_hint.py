"""Hints and "still winnable?" on games in progress."""

from __future__ import annotations

import random

import pytest

from app.engine import DealCode, Game, Rules, apply_move
from app.solver import Budget, Verdict
from app.solver.hint import KNOWN_LINES, hint, still_winnable

BUDGET = Budget(nodes=300_000, seconds=60)


@pytest.fixture(autouse=True)
def no_known_lines() -> None:
    KNOWN_LINES.clear()


def halfway(code: str) -> Game:
    """A game of a winnable deal, played halfway along the solver's winning line."""
    game = Game(DealCode.parse(code))
    line = hint(game, BUDGET).line
    for move in line[: len(line) // 2]:
        game.play(move)
    KNOWN_LINES.clear()
    return game


def lost_classic_game() -> Game:
    """Classic draw 3, deal 8, after 39 random moves: the last one lost the game."""
    rng = random.Random(0)
    game = Game(DealCode.parse("CF1-C3-AAAAAAI"))
    for _ in range(39):
        moves = [m for m in game.legal_moves() if m.card is not None] or game.legal_moves()
        game.play(rng.choice(moves))
    return game


@pytest.mark.parametrize("code", ["CF1-D3-AAAAAAB", "CF1-C3-AAAAAAC", "CF1-S1-AAAAAAA"])
def test_the_hint_is_a_legal_move_that_keeps_the_game_winnable(code: str) -> None:
    game = halfway(code)
    answer = hint(game, BUDGET)
    assert answer.verdict is Verdict.WON
    assert answer.move in game.legal_moves()
    assert answer.line[0] == answer.move
    after = apply_move(game.position, game.rules, answer.move)
    KNOWN_LINES.clear()
    assert still_winnable(after, game.rules, BUDGET) is True
    assert str(answer.move) in answer.message


def test_following_the_hints_wins_the_game_and_later_hints_come_at_once() -> None:
    game = Game(DealCode.parse("CF1-D3-AAAAAAB"))
    first = hint(game, BUDGET)
    assert first.nodes > 0
    while not game.won:
        answer = hint(game, BUDGET)
        assert answer.move is not None
        assert answer.nodes == 0  # from the line already found
        game.play(answer.move)
    assert len(game.actions) == len(first.line)


def test_a_lost_position_says_how_many_undos_lead_back_to_a_winnable_one() -> None:
    game = lost_classic_game()
    assert still_winnable(game.position, game.rules, BUDGET) is False
    answer = hint(game, BUDGET)
    assert answer.move is None
    assert answer.verdict is Verdict.UNWINNABLE
    assert answer.undo == 1
    assert answer.message == (
        "No winning line from here; undo 1 move to get back to a winnable position."
    )
    game.undo()
    KNOWN_LINES.clear()
    assert still_winnable(game.position, game.rules, BUDGET) is True


def test_undo_is_searched_only_as_far_as_the_undo_limit_reaches() -> None:
    game = lost_classic_game()
    limited = Game(DealCode(game.rules.with_options(undo_limit=0), number=game.code.number))
    for action in game.actions:
        limited.play(action)
    answer = hint(limited, BUDGET)
    assert answer.verdict is Verdict.UNWINNABLE
    assert answer.undo is None
    assert answer.message == "No winning line from here, and there is no move to undo."


def test_a_deal_that_cannot_be_won_says_so() -> None:
    game = Game(DealCode.parse("CF1-D3-AAAAAAE"))  # deal 4: nothing useful can be played
    game.play("draw")
    game.play("draw")
    answer = hint(game, BUDGET)
    assert answer.move is None
    assert answer.verdict is Verdict.UNWINNABLE
    assert answer.message == (
        "No winning line from here; this deal cannot be won from its start either."
    )


def test_a_won_game_has_nothing_to_hint() -> None:
    game = Game(DealCode.parse("CF1-D3-AAAAAAB"))
    for move in hint(game, BUDGET).line:
        game.play(move)
    answer = hint(game, BUDGET)
    assert game.won
    assert answer.move is None
    assert answer.message == "The game is won: there is nothing left to hint."


def test_out_of_budget_the_hint_says_it_could_not_tell() -> None:
    game = Game(DealCode(Rules(), number=19))  # needs far more than 100 nodes
    answer = hint(game, Budget(nodes=100, seconds=30))
    assert answer.move is None
    assert answer.verdict is Verdict.UNKNOWN
    assert "could not tell" in answer.message


def test_still_winnable_answers_true_false_or_none() -> None:
    rules = Rules()
    assert still_winnable(Game(DealCode(rules, number=1)).position, rules, BUDGET) is True
    assert still_winnable(Game(DealCode(rules, number=4)).position, rules, BUDGET) is False
    hard = Game(DealCode(rules, number=19)).position
    assert still_winnable(hard, rules, Budget(nodes=100, seconds=30)) is None
