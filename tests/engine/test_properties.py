"""Properties over random deals, random rule options and random playouts (hypothesis)."""

from __future__ import annotations

import random
from collections import deque
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.engine import (
    Card,
    DealCode,
    Game,
    IllegalMoveError,
    Move,
    Position,
    Rules,
    apply_move,
    resolve_tap,
)
from app.engine.cards import ORDERED_DECK

from .strategies import any_code, any_rules
from .table import sorted_deck

CANDIDATES = ["draw"] + [
    f"{card}-{target}" for card in ORDERED_DECK for target in ("f", "t1", "t2", "t3", "t4")
]
STEPS = 150
PLAYOUT = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Seen(NamedTuple):
    """What a player sees of a game at one moment."""

    position: Position
    score: int
    moves: int
    undo_available: int
    version: int


def seen(game: Game) -> Seen:
    return Seen(game.position, game.score, game.moves, game.undo_available, game.version)


def assert_every_card_once(position: Position) -> None:
    assert sorted(position.cards(), key=lambda card: card.index) == list(ORDERED_DECK)


def assert_legal_moves_are_exact(game: Game) -> None:
    """The listed moves are unique and all apply; every other candidate is refused."""
    legal = game.legal_moves()
    assert len(legal) == len(set(legal))
    listed = set(legal)
    before = seen(game)
    for move in legal:
        assert_every_card_once(apply_move(game.position, game.rules, move))
    for text in CANDIDATES:
        if Move.parse(text) in listed:
            continue
        with pytest.raises(IllegalMoveError):
            game.play(text)
        assert seen(game) == before


def assert_taps_resolve_to_legal_moves(game: Game, rng: random.Random) -> None:
    legal = set(game.legal_moves())
    for card in rng.sample(ORDERED_DECK, 6):
        for double in (False, True):
            move = resolve_tap(game.position, game.rules, card, double=double)
            assert move is None or move in legal
            if move is not None:
                assert move.card == card


def assert_won_game_is_closed(game: Game) -> None:
    assert game.legal_moves() == []
    assert game.undo_available == 0
    before = seen(game)
    for action in ("undo", "draw", "KS-f", "AC-t1"):
        with pytest.raises(IllegalMoveError, match="the game is won"):
            game.apply_action(action)
    assert seen(game) == before


def pick(game: Game, rng: random.Random) -> Move:
    """A random legal move, mostly one that makes progress (to a foundation, or
    from the reserve or the waste), so that playouts reach late positions too."""
    legal = game.legal_moves()
    position = game.position
    tops = {pile[-1] for pile in (position.reserve, position.waste) if pile}
    progress = [
        move for move in legal if move.card is not None and (move.target < 0 or move.card in tops)
    ]
    if progress and rng.random() < 0.8:
        return rng.choice(progress)
    return rng.choice(legal)


@PLAYOUT
@given(rules=any_rules(), data=st.data())
def test_random_playouts_keep_every_rule(rules: Rules, data: st.DataObject) -> None:
    code = data.draw(
        st.one_of(
            any_code(rules), nearly_sorted_decks().map(lambda d: DealCode.for_deck(d, rules))
        ),
        label="code",
    )
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    game = Game(code)
    # The undo history as SPEC §5 describes it: what the game looked like before each
    # kept action, at most undo_limit of them, the oldest dropped for good.
    kept: deque[Seen] = deque(maxlen=rules.undo_limit)
    skill = rules.scoring == "skill"
    for step in range(STEPS):
        assert_every_card_once(game.position)
        if step % 4 == 0 or game.won:  # the full sweep of candidates is the slow part
            assert_legal_moves_are_exact(game)
            assert_taps_resolve_to_legal_moves(game, rng)
        if game.won:
            assert_won_game_is_closed(game)
            break
        assert game.undo_available == len(kept)
        stuck = not game.legal_moves()  # no rule set declares a loss; only undo helps
        if stuck and not kept:
            break
        if kept and (stuck or rng.random() < 0.15):
            earlier, moves_before = kept.pop(), game.moves
            game.undo()
            assert game.position == earlier.position
            assert game.score == earlier.score
            assert game.moves == (moves_before + 1 if skill else earlier.moves)
            assert game.undo_available == len(kept)
        else:
            before = seen(game)
            game.play(pick(game, rng))
            assert game.version == before.version + 1
            assert game.moves == before.moves + 1
            kept.append(before)  # a no-op when undo_limit is 0
    event(f"reserve {'emptied' if not game.position.reserve else 'left'}")
    event(f"pass {min(game.position.pass_number, 3)}")
    event("won" if game.won else "not won")
    assert_replay_is_the_same_game(game)


def assert_replay_is_the_same_game(game: Game) -> None:
    record = game.record()
    assert record["code"] == str(game.code)
    again = Game.replay(record["code"], record["actions"])
    assert seen(again) == seen(game)
    assert again.actions == game.actions
    while True:
        try:
            game.undo()
        except IllegalMoveError as error:
            with pytest.raises(IllegalMoveError, match=str(error)):
                again.undo()
            break
        again.undo()
        assert seen(again) == seen(game)


def nearly_sorted_decks() -> st.SearchStrategy[tuple[Card, ...]]:
    """The deck that deals itself out (`sorted_deck`) with up to three pairs of cards swapped."""

    def swapped(swaps: list[tuple[int, int]]) -> tuple[Card, ...]:
        deck = list(sorted_deck())
        for i, j in swaps:
            deck[i], deck[j] = deck[j], deck[i]
        return tuple(deck)

    pairs = st.tuples(st.integers(0, 51), st.integers(0, 51))
    return st.lists(pairs, max_size=3).map(swapped)


@settings(max_examples=60, deadline=None)
@given(rules=any_rules(), deck=nearly_sorted_decks(), seed=st.integers(0, 2**32 - 1))
def test_a_won_game_has_no_moves_and_refuses_everything(
    rules: Rules, deck: tuple[Card, ...], seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(DealCode.for_deck(deck, rules))
    for _ in range(400):
        if game.won:
            event("won")
            assert_won_game_is_closed(game)
            return
        legal = game.legal_moves()
        if not legal:
            event("stuck")
            return  # stuck: no rule set declares a loss, the game just stands
        up = [move for move in legal if move.card is not None and move.target < 0]
        game.play(up[0] if up else rng.choice(legal))
