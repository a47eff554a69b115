"""The seeds' example game of SPEC §9, played through the engine's API."""

import pytest

from app.engine import DealCode, Game, IllegalMoveError, Rules

DEALING_ORDER = (
    "AC 2C 3C 4C 5C 7C 8C 9C TC JS QS 8H QC 7H 6C KH QH AS JC KC AD 2D 3D 4D 5D 6D "
    "7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 9H TH JH 2S 3S 4S 5S 6S 7S 8S 9S TS KS"
)
SEED_DECK = DEALING_ORDER.split()
SEED_CODE = "CF1-D3-AAAAAAAOEGYXXBLQBCLVSVVBKAUAXFBHCBYLVAMIYTIVUUAA"
OPENING = (
    "Stock: 34 cards; waste empty; reserve: 13 cards, top: queen of clubs. "
    "Foundations, start rank 7: hearts up to 7 of hearts (1), spades empty, diamonds empty, "
    "clubs empty. Column 1: 6 of clubs; column 2: king of hearts; column 3: queen of hearts; "
    "column 4: ace of spades."
)
AFTER_THREE = (
    "Stock: 34 cards; waste empty; reserve: 10 cards, top: jack of spades. "
    "Foundations, start rank 7: hearts up to 8 of hearts (2), spades empty, diamonds empty, "
    "clubs empty. Column 1: 6 of clubs; column 2: queen of spades; column 3: queen of hearts; "
    "column 4: ace of spades, king of hearts, queen of clubs."
)


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
