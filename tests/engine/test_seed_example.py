"""The seeds' example game of SPEC §9, played through the engine's API."""

import pytest

from app.engine import DealCode, Game, IllegalMoveError, Rules
from tests.shared import SEED_AFTER_THREE as AFTER_THREE
from tests.shared import SEED_CODE, SEED_DECK
from tests.shared import SEED_OPENING as OPENING


def test_the_custom_deck_has_the_seeds_long_code() -> None:
    assert str(DealCode.for_deck(SEED_DECK, Rules())) == SEED_CODE
    assert [str(c) for c in DealCode.parse(SEED_CODE.lower()).deck] == SEED_DECK


def test_the_opening_summary_reads_as_the_seeds_say() -> None:
    assert Game(DealCode.parse(SEED_CODE)).summary() == OPENING


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("8H-f", "8H is under QC in the reserve"),
        ("AS-f", "the spade foundation starts at 7S"),
    ],
)
def test_the_seeds_illegal_moves_are_refused_with_their_reason(move: str, reason: str) -> None:
    game = Game(DealCode.parse(SEED_CODE))
    with pytest.raises(IllegalMoveError, match=reason):
        game.play(move)
    assert game.summary() == OPENING
    assert game.version == 0


def test_three_moves_refill_column_two_from_the_reserve_and_score_five() -> None:
    game = Game(DealCode.parse(SEED_CODE))
    for move in ("QC-t2", "8H-f", "KH-t4"):
        game.play(move)
    assert game.summary() == AFTER_THREE
    assert game.score == 5
    assert game.moves == 3
