"""The foundations (SPEC §3): the start rank, building up in suit with K followed by A,
and taking cards back to the columns."""

import pytest

from app.engine import IllegalMoveError, Move, Rules, apply_move, check_move, summary

from .table import cards, moves, table

TAKE_BACK = Rules.preset_named("app", foundation_to_tableau=True)
NO_TAKE_BACK = Rules.preset_named("app", foundation_to_tableau=False)


def test_an_empty_foundation_takes_only_the_start_rank_card_of_its_suit() -> None:
    position = table("AS", "7S", "8C", "6D", start="7", base="H", foundations="7H")
    assert "7S-f" in moves(position, TAKE_BACK)
    assert "AS-f" not in moves(position, TAKE_BACK)
    with pytest.raises(IllegalMoveError, match="the spade foundation starts at 7S"):
        check_move(position, TAKE_BACK, Move.parse("AS-f"))


def test_a_foundation_builds_up_in_suit() -> None:
    position = table("8H", "9H", "8D", "5C", start="7", base="H", foundations="7H")
    assert "8H-f" in moves(position, TAKE_BACK)
    with pytest.raises(IllegalMoveError, match="the heart foundation takes 8H next"):
        check_move(position, TAKE_BACK, Move.parse("9H-f"))
    with pytest.raises(IllegalMoveError, match="the diamond foundation starts at 7D"):
        check_move(position, TAKE_BACK, Move.parse("8D-f"))


def test_after_the_king_a_foundation_takes_the_ace() -> None:
    position = table("AH", "2H", "8D", "5C", start="7", base="H", foundations="KH")
    assert "AH-f" in moves(position, TAKE_BACK)
    after = apply_move(position, TAKE_BACK, Move.parse("AH-f"))
    assert after.foundations[2] == 8
    assert after.foundation_top(2) == cards("AH")[0]
    assert "hearts up to ace of hearts (8)" in summary(after)


def test_a_foundation_is_full_at_thirteen_cards_ending_below_the_start_rank() -> None:
    position = table("AS", "7S", "8C", "6D", start="7", base="H", foundations="6H")
    assert position.foundations[2] == 13
    assert position.foundation_top(2) == cards("6H")[0]
    assert position.foundation_cards(2) == cards("7H 8H 9H TH JH QH KH AH 2H 3H 4H 5H 6H")


def test_the_top_of_a_foundation_may_go_back_to_a_column() -> None:
    position = table("4S", "9D", "8C", "6D", foundations="3H")
    assert "3H-t1" in moves(position, TAKE_BACK)
    after = apply_move(position, TAKE_BACK, Move.parse("3H-t1"))
    assert after.tableau[0] == cards("4S 3H")
    assert after.foundations[2] == 2


def test_only_the_top_of_a_foundation_may_go_back() -> None:
    position = table("3S", "9D", "8C", "6D", foundations="3H")
    assert "2H-t1" not in moves(position, TAKE_BACK)
    with pytest.raises(IllegalMoveError, match="2H is under 3H on its foundation"):
        check_move(position, TAKE_BACK, Move.parse("2H-t1"))


def test_a_lone_start_card_may_go_back_and_its_foundation_is_then_empty() -> None:
    position = table("8C", "9D", "4C", "6D", start="7", base="H", foundations="7H")
    assert "7H-t1" in moves(position, TAKE_BACK)
    after = apply_move(position, TAKE_BACK, Move.parse("7H-t1"))
    assert after.foundations == (0, 0, 0, 0)
    assert "hearts empty" in summary(after)
    assert "7H-f" in moves(after, TAKE_BACK)
    again = apply_move(after, TAKE_BACK, Move.parse("7H-f"))
    assert again.foundations[2] == 1


def test_no_card_comes_back_from_a_foundation_without_foundation_to_tableau() -> None:
    position = table("4S", "9D", "8C", "6D", foundations="3H")
    assert "3H-t1" not in moves(position, NO_TAKE_BACK)
    with pytest.raises(IllegalMoveError, match="cards never come back from the foundations"):
        check_move(position, NO_TAKE_BACK, Move.parse("3H-t1"))


def test_a_card_already_on_its_foundation_does_not_go_there_again() -> None:
    position = table("4S", "9D", "8C", "6D", foundations="3H")
    with pytest.raises(IllegalMoveError, match="3H is already on its foundation"):
        check_move(position, TAKE_BACK, Move.parse("3H-f"))


def test_foundations_are_shown_from_the_base_suit_round_hearts_spades_diamonds_clubs() -> None:
    order = {base: table(base=base).foundation_order for base in "CDHS"}
    assert order == {"H": (2, 3, 1, 0), "S": (3, 1, 0, 2), "D": (1, 0, 2, 3), "C": (0, 2, 3, 1)}
