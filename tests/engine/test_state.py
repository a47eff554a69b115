"""Stored game state: positions round-trip as text, and a restored game plays as the replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import DealCode, Game, IllegalMoveError, InvalidCodeError, Rules
from app.engine.codes import MAX_DEAL_NUMBER
from app.engine.position import Position
from app.engine.state import UndoEntry, UndoStack, decode_position, encode_position


def random_game(number: int, rules: Rules, steps: int, seed: int) -> Game:
    """A game of `steps` random legal actions (moves, and undo now and then)."""
    rng = random.Random(seed)
    game = Game(DealCode(rules, number=number))
    for _ in range(steps):
        if game.undo_available and rng.random() < 0.2:
            game.undo()
            continue
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    return game


@given(
    number=st.integers(0, MAX_DEAL_NUMBER),
    steps=st.integers(0, 120),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=60, deadline=None)
def test_a_position_reads_back_from_its_text(number: int, steps: int, seed: int) -> None:
    position = random_game(number, Rules(), steps, seed).position
    text = encode_position(position)
    assert decode_position(text) == position
    assert text.isascii()


def test_the_opening_text_is_short_and_exact() -> None:
    position = Position.deal(DealCode.parse("CF1-D3-AAAAACL").deck)
    text = encode_position(position)
    assert len(text) < 70
    assert decode_position(text).tableau == position.tableau


@pytest.mark.parametrize("text", ["", "x", "A.B.C", "....." + "....", "AB.C.D.E.F.G.H.0000.1.A"])
def test_text_that_is_not_a_stored_position_is_refused(text: str) -> None:
    with pytest.raises(InvalidCodeError, match="not a stored position"):
        decode_position(text)


class FakeStore:
    """Keeps a game the way app/store does: the state columns plus one undo entry per move."""

    def __init__(self, code: DealCode) -> None:
        self.code = code
        opening = Game(code)
        self.position = encode_position(opening.position)
        self.points = opening.points
        self.moves = 0
        self.version = 0
        self.top: int | None = None
        self.count = 0
        self.entries: dict[int, tuple[str, int, int | None]] = {}
        self.loads = 0
        self.undo = UndoStack(code.rules.undo_limit)

    def load(self, index: int) -> UndoEntry:
        self.loads += 1
        position, points, below = self.entries[index]
        return UndoEntry(decode_position(position), points, below)

    def restore(self) -> Game:
        self.undo = UndoStack(
            self.code.rules.undo_limit,
            version=self.version,
            top=self.top,
            count=self.count,
            load=self.load,
        )
        return Game.restore(
            self.code,
            position=decode_position(self.position),
            points=self.points,
            moves=self.moves,
            seconds=0.0,
            undo=self.undo,
            version=self.version,
        )

    def save(self, game: Game) -> None:
        for index, entry in self.undo.pushed.items():
            self.entries[index] = (encode_position(entry.position), entry.points, entry.below)
        self.position = encode_position(game.position)
        self.points, self.moves, self.version = game.points, game.moves, game.version
        self.top, self.count = self.undo.top, self.undo.count


@pytest.mark.parametrize("limit", [None, 0, 1, 2, 5, 100])
@pytest.mark.parametrize("seed", range(6))
def test_a_game_restored_before_every_action_plays_exactly_as_its_replay(
    limit: int | None, seed: int
) -> None:
    """Every action goes through restore → act → save, as the server does it."""
    rng = random.Random(seed)
    rules = Rules.preset_named(rng.choice(["app", "classic", "skill"]), undo_limit=limit)
    code = DealCode(rules, number=rng.randrange(MAX_DEAL_NUMBER))
    store = FakeStore(code)
    reference = Game(code)
    for _ in range(150):
        game = store.restore()
        assert game.position == reference.position
        assert game.undo_available == reference.undo_available
        assert (game.points, game.moves, game.version) == (
            reference.points,
            reference.moves,
            reference.version,
        )
        if reference.undo_available and rng.random() < 0.35:
            game.undo()
            reference.undo()
        else:
            moves = reference.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            game.play(move)
            reference.play(move)
        assert game.actions == reference.actions[-1:]
        store.save(game)
    final = store.restore()
    replayed = Game.replay(code, reference.actions)
    assert final.position == replayed.position
    assert final.undo_available == replayed.undo_available
    # Undo all the way down, restoring each time: the same positions as the replay.
    while replayed.undo_available:
        game = store.restore()
        game.undo()
        replayed.undo()
        store.save(game)
        assert store.restore().position == replayed.position
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        store.restore().undo()


def test_an_undo_loads_only_the_entry_it_pops() -> None:
    code = DealCode.parse("CF1-C3-AAAAACL")
    store = FakeStore(code)
    for _ in range(30):
        game = store.restore()
        game.play(game.legal_moves()[-1])
        store.save(game)
    game = store.restore()
    game.undo()
    assert store.loads == 1
    game.undo()
    assert store.loads == 2


def test_a_restored_game_does_not_pretend_to_hold_its_whole_log() -> None:
    store = FakeStore(DealCode.parse("CF1-D3-AAAAACL"))
    game = store.restore()
    game.play("draw")
    # Restored at version 0, it holds its whole log.
    assert game.record() == {"code": "CF1-D3-AAAAACL", "actions": ["draw"]}
    store.save(game)
    game = store.restore()
    game.play("draw")
    assert (game.base_version, game.version, game.actions) == (1, 2, ["draw"])
    with pytest.raises(ValueError, match="restored at version 1"):
        game.record()


def test_a_restored_game_is_a_plain_game() -> None:
    game = FakeStore(DealCode.parse("CF1-D3-AAAAACL")).restore()
    assert type(game) is Game


def test_a_card_both_on_the_table_and_on_its_foundation_is_refused() -> None:
    position = Position.deal(DealCode.parse("CF1-D3-AAAAACL").deck)
    # The base card 2C is on the clubs foundation; claim the 3C there too.
    text = encode_position(position).split(".")
    text[7] = "2000"
    with pytest.raises(InvalidCodeError, match="not a stored position"):
        decode_position(".".join(text))
