"""Properties over random deals, random rule options and random playouts (hypothesis)."""

from __future__ import annotations

import random
from collections import deque
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.engine import (
    DRAW,
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
AIMED_STEPS = 200  # a won game takes 60-140 actions, and undos come on the way
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


def pick(game: Game, rng: random.Random, *, aim: bool) -> Move:
    """A random legal move, mostly one that makes progress (to a foundation, or
    from the reserve or the waste), so that playouts reach late positions too.
    Aiming to win, the first foundation move, else a draw: that wins a deck that
    deals itself out (`sorted_deck`) and often one with a few cards swapped."""
    legal = game.legal_moves()
    position = game.position
    up = [move for move in legal if move.card is not None and move.target < 0]
    if aim:
        if up:
            return up[0]
        if DRAW in legal and rng.random() < 0.9:
            return DRAW
    tops = {pile[-1] for pile in (position.reserve, position.waste) if pile}
    progress = [move for move in legal if move.card is not None and move.card in tops]
    if (up or progress) and rng.random() < 0.8:
        return rng.choice(up + progress)
    return rng.choice(legal)


def playout(game: Game, rng: random.Random, *, steps: int, aim: bool) -> str:
    """Play `steps` random actions (moves, and undos now and then), checking every rule
    on the way; how it ended: "won", "stuck" (no move and nothing to undo) or "cap"."""
    rules = game.rules
    # The undo history as SPEC §5 describes it: what the game looked like before each
    # kept action, at most undo_limit of them, the oldest dropped for good.
    kept: deque[Seen] = deque(maxlen=rules.undo_limit)
    skill = rules.scoring == "skill"
    undo_rate = 0.05 if aim else 0.15
    for step in range(steps):
        assert_every_card_once(game.position)
        if step % 4 == 0 or game.won:  # the full sweep of candidates is the slow part
            assert_legal_moves_are_exact(game)
            assert_taps_resolve_to_legal_moves(game, rng)
        if game.won:
            assert_won_game_is_closed(game)
            return "won"
        assert game.undo_available == len(kept)
        stuck = not game.legal_moves()  # no rule set declares a loss; only undo helps
        if stuck and not kept:
            return "stuck"
        if kept and (stuck or rng.random() < undo_rate):
            earlier, moves_before = kept.pop(), game.moves
            game.undo()
            assert game.position == earlier.position
            assert game.score == earlier.score
            assert game.moves == (moves_before + 1 if skill else earlier.moves)
            assert game.undo_available == len(kept)
        else:
            before = seen(game)
            game.play(pick(game, rng, aim=aim))
            assert game.version == before.version + 1
            assert game.moves == before.moves + 1
            kept.append(before)  # a no-op when undo_limit is 0
    # Stopped by the cap, not by the game: it is still going, with a move or an undo.
    assert not game.won
    assert game.legal_moves() or game.undo_available
    return "cap"


@PLAYOUT
@given(rules=any_rules(), aim=st.booleans(), data=st.data())
def test_random_playouts_keep_every_rule(rules: Rules, aim: bool, data: st.DataObject) -> None:
    """Random deals, and (aiming to win) nearly sorted decks played to the end."""
    sorted_codes = nearly_sorted_decks().map(lambda deck: DealCode.for_deck(deck, rules))
    codes = sorted_codes if aim else st.one_of(any_code(rules), sorted_codes)
    code = data.draw(codes, label="code")
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    game = Game(code)
    ended = playout(game, rng, steps=AIMED_STEPS if aim else STEPS, aim=aim)
    event(f"reserve {'emptied' if not game.position.reserve else 'left'}")
    event(f"pass {min(game.position.pass_number, 3)}")
    event(ended)
    assert_replay_is_the_same_game(game)


@pytest.mark.parametrize("preset", ["app", "classic", "skill"])
@pytest.mark.parametrize("draw", [1, 3])
@pytest.mark.parametrize("seed", range(3))
def test_playouts_aiming_to_win_a_sorted_deck_win_it(preset: str, draw: int, seed: int) -> None:
    """The won-game checks of a playout run: a sorted deck is won, undos and all."""
    rules = Rules.preset_named(preset, draw=draw, passes=None)
    game = Game(DealCode.for_deck(sorted_deck(), rules))
    assert playout(game, random.Random(seed), steps=AIMED_STEPS, aim=True) == "won"
    assert game.won
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
    # Stopped by the cap (going round the stock, or moving cards between columns): the
    # game goes on, and its log replays to it.
    event("cap")
    assert not game.won
    assert game.legal_moves()
    assert_replay_is_the_same_game(game)
