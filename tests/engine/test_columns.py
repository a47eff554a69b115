"""The columns (SPEC §3): building down in alternating colours, what may move, empty columns."""

import pytest

from app.engine import IllegalMoveError, Move, Rules, apply_move, check_move

from .table import cards, moves, table

ANY_RUN = Rules.preset_named("app")
TOP_OR_ALL = Rules.preset_named("app", tableau_moves="top-or-all")
WHOLE_COLUMN = Rules.preset_named("app", tableau_moves="all")

# Column 1 holds the run 9S 8H 7C. Each of its cards has a column to go to:
# 9S (the whole column) onto TD, 8H (the middle) onto 9C, 7C (the last) onto 8D,
# and 7C also to its foundation (clubs are up to 6C).
RUN = table("9S 8H 7C", "TD", "9C", "8D", reserve="2S 3S", foundations="6C")


def test_any_run_moves_any_card_with_everything_on_it() -> None:
    assert {"9S-t2", "8H-t3", "7C-t4", "7C-f"} <= moves(RUN, ANY_RUN)
    after = apply_move(RUN, ANY_RUN, Move.parse("8H-t3"))
    assert after.tableau[0] == cards("9S")
    assert after.tableau[2] == cards("9C 8H 7C")


def test_top_or_all_moves_the_last_card_or_the_whole_column() -> None:
    legal = moves(RUN, TOP_OR_ALL)
    assert {"9S-t2", "7C-t4", "7C-f"} <= legal
    assert "8H-t3" not in legal
    with pytest.raises(IllegalMoveError, match="only the last card of a column or the whole"):
        check_move(RUN, TOP_OR_ALL, Move.parse("8H-t3"))


def test_all_moves_only_whole_columns_but_the_last_card_may_go_to_its_foundation() -> None:
    legal = moves(RUN, WHOLE_COLUMN)
    assert {"9S-t2", "7C-f"} <= legal
    assert not {"8H-t3", "7C-t4"} & legal
    for move in ("8H-t3", "7C-t4"):
        with pytest.raises(IllegalMoveError, match="only a whole column can move"):
            check_move(RUN, WHOLE_COLUMN, Move.parse(move))


@pytest.mark.parametrize("rules", [ANY_RUN, TOP_OR_ALL, WHOLE_COLUMN])
def test_moving_a_whole_column_refills_it_from_the_reserve_in_the_same_move(
    rules: Rules,
) -> None:
    after = apply_move(RUN, rules, Move.parse("9S-t2"))
    assert after.tableau[0] == cards("3S")
    assert after.tableau[1] == cards("TD 9S 8H 7C")
    assert after.reserve == cards("2S")


def test_a_column_emptied_to_the_foundation_is_refilled_from_the_reserve() -> None:
    position = table("9S", "TD", "9C", "7C", reserve="2S 3S", foundations="6C")
    after = apply_move(position, ANY_RUN, Move.parse("7C-f"))
    assert after.tableau[3] == cards("3S")
    assert after.reserve == cards("2S")
    assert after.foundations[0] == 7


def test_with_the_reserve_empty_an_emptied_column_stays_empty() -> None:
    position = table("9S", "TD", "9C", "7C", foundations="6C", reserve="")
    after = apply_move(position, ANY_RUN, Move.parse("7C-f"))
    assert after.tableau[3] == ()


def test_a_card_goes_on_the_other_colour_one_rank_higher() -> None:
    position = table("8S", "8D", "7D", "7S", reserve="7H 7C")
    assert {"7C-t2", "7D-t1", "7S-t2"} <= moves(position, ANY_RUN)
    for move in ("7C-t1", "7C-t3", "7S-t1"):
        assert move not in moves(position, ANY_RUN)


def test_a_king_goes_on_an_ace_of_the_other_colour() -> None:
    position = table("AD", "AS", "5C", "5H", reserve="KH KS")
    assert "KS-t1" in moves(position, ANY_RUN)
    after = apply_move(position, ANY_RUN, Move.parse("KS-t1"))
    assert after.tableau[0] == cards("AD KS")
    with pytest.raises(IllegalMoveError, match="a king of spades cannot go on an ace of spades"):
        check_move(position, ANY_RUN, Move.parse("KS-t2"))


def test_an_ace_does_not_go_on_a_two_of_its_own_colour_nor_a_king_on_a_queen() -> None:
    position = table("2D", "QS", "5C", "5H", reserve="KH AH")
    assert "AH-t1" not in moves(position, ANY_RUN)
    with pytest.raises(IllegalMoveError, match="an ace of hearts cannot go on a 2 of diamonds"):
        check_move(position, ANY_RUN, Move.parse("AH-t1"))


def test_a_card_never_moves_to_the_column_it_is_in() -> None:
    position = table("9S 8H", "TD", "5C", "5H")
    with pytest.raises(IllegalMoveError, match="8H is already in column 1"):
        check_move(position, ANY_RUN, Move.parse("8H-t1"))
    with pytest.raises(IllegalMoveError, match="9S is already in column 1"):
        check_move(position, ANY_RUN, Move.parse("9S-t1"))


# The reserve is empty and column 1 with it. The waste's top is JD, column 2 holds
# the run 5H 4S, and the foundation of clubs is up to 2C.
EMPTY = table("", "5H 4S", "KC", "9D", waste="JD", foundations="2C")
EMPTY_ANY = Rules.preset_named("app", empty_column="any")
EMPTY_WASTE = Rules.preset_named("app", empty_column="waste")


def test_an_empty_column_takes_anything_when_empty_column_is_any() -> None:
    assert {"JD-t1", "4S-t1", "5H-t1", "KC-t1", "9D-t1", "2C-t1"} <= moves(EMPTY, EMPTY_ANY)
    after = apply_move(EMPTY, EMPTY_ANY, Move.parse("5H-t1"))
    assert after.tableau[:2] == (cards("5H 4S"), ())


def test_an_empty_column_takes_only_the_waste_top_when_empty_column_is_waste() -> None:
    legal = moves(EMPTY, EMPTY_WASTE)
    assert "JD-t1" in legal
    for move in ("4S-t1", "5H-t1", "KC-t1", "9D-t1", "2C-t1"):
        assert move not in legal
        with pytest.raises(IllegalMoveError, match="an empty column takes only the top card"):
            check_move(EMPTY, EMPTY_WASTE, Move.parse(move))


@pytest.mark.parametrize("rules", [EMPTY_ANY, EMPTY_WASTE])
def test_an_empty_column_may_stay_empty(rules: Rules) -> None:
    after = apply_move(EMPTY, rules, Move.parse("draw"))
    assert after.tableau[0] == ()
    assert "draw" in moves(after, rules)


def test_a_whole_column_may_move_to_an_empty_column_only_where_empty_column_is_any() -> None:
    whole = Rules.preset_named("app", tableau_moves="all", empty_column="any")
    assert "5H-t1" in moves(EMPTY, whole)
    whole_waste = Rules.preset_named("classic")
    assert "5H-t1" not in moves(EMPTY, whole_waste)
    assert "JD-t1" in moves(EMPTY, whole_waste)
