"""Why a move is refused (SPEC §4): every illegal move names its reason in a player's words."""

import pytest

from app.engine import Card, IllegalMoveError, Move, Position, Rules, check_move, legal_moves

from .table import table

APP = Rules.preset_named("app")

# Start rank ace. Reserve top 4C over 9H; waste top 5D over 6S; column 1 is 7H 6C,
# column 2 8H, column 3 9S, column 4 QD; hearts are up to 3H.
BOARD = table("7H 6C", "8H", "9S", "QD", reserve="9H 4C", waste="6S 5D", foundations="3H")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("9H-t3", "9H is under 4C in the reserve"),
        ("6S-t1", "6S is under 5D in the waste"),
        ("7H-f", "7H is under 6C in column 1"),
        (None, "is face down in the stock"),
        ("4C-f", "the club foundation starts at AC"),
        ("8H-f", "the heart foundation takes 4H next"),
        ("3H-f", "3H is already on its foundation"),
        ("2H-t1", "2H is under 3H on its foundation"),
        ("5D-t2", "a 5 of diamonds cannot go on an 8 of hearts"),
        ("4C-t4", "a 4 of clubs cannot go on a queen of diamonds"),
        ("6C-t1", "6C is already in column 1"),
    ],
)
def test_an_illegal_move_says_why(move: str | None, reason: str) -> None:
    text = move or f"{BOARD.stock[-1]}-t1"
    with pytest.raises(IllegalMoveError, match=reason):
        check_move(BOARD, APP, Move.parse(text))


def test_a_5_of_clubs_cannot_go_on_a_7_of_hearts() -> None:
    position = table("7H", "9D", "8C", "5C")
    with pytest.raises(IllegalMoveError, match=r"^a 5 of clubs cannot go on a 7 of hearts$"):
        check_move(position, APP, Move.parse("5C-t1"))


@pytest.mark.parametrize(
    ("options", "move", "reason"),
    [
        ({"tableau_moves": "top-or-all"}, "8S-t2", "only the last card of a column or the whole"),
        ({"tableau_moves": "all"}, "7D-t4", "only a whole column can move"),
        ({"foundation_to_tableau": False}, "3H-t1", "cards never come back from the foundations"),
    ],
)
def test_option_restrictions_say_why(options: dict[str, object], move: str, reason: str) -> None:
    position = table("4S", "9D", "9H 8S 7D", "8C", reserve="2S", foundations="3H")
    rules = Rules.preset_named("app", **options)
    assert Move.parse(move) in legal_moves(position, APP)
    with pytest.raises(IllegalMoveError, match=reason):
        check_move(position, rules, Move.parse(move))


def test_an_empty_column_in_waste_mode_says_it_takes_only_the_waste() -> None:
    position = table("", "TD 9S", "8C", "4D", waste="KS")
    rules = Rules.preset_named("app", empty_column="waste")
    with pytest.raises(IllegalMoveError, match="an empty column takes only the top card"):
        check_move(position, rules, Move.parse("9S-t1"))


def test_no_passes_left_says_so() -> None:
    position = table("4S", "TD", "8C", "4D", waste="KS", pass_number=3, rest="reserve")
    rules = Rules.preset_named("skill", passes=3)
    with pytest.raises(IllegalMoveError, match=r"no passes through the stock are left \(3 of 3"):
        check_move(position, rules, Move.parse("draw"))


@pytest.mark.parametrize("target", [4, 7, -2])
def test_a_move_to_a_column_that_does_not_exist_is_refused(target: int) -> None:
    position: Position = table("7H", "9D", "8C", "5C")
    with pytest.raises(IllegalMoveError, match="there is no column"):
        check_move(position, APP, Move(Card.parse("5C"), target))
