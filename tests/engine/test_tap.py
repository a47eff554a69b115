"""Tapping a card (SPEC §4): where a tap or a double tap sends it, in app and in skill."""

import pytest

from app.engine import (
    Card,
    IllegalMoveError,
    Position,
    Rules,
    is_safe_for_foundation,
    resolve_tap,
)

from .table import game_at, moves, table

APP = Rules.preset_named("app")
SKILL = Rules.preset_named("skill")


def tap(
    position: Position,
    card: str,
    rules: Rules = APP,
    *,
    double_click: bool = True,
    double: bool = False,
) -> str | None:
    move = resolve_tap(position, rules, Card.parse(card), double_click=double_click, double=double)
    return None if move is None else str(move)


def test_a_tap_sends_a_card_to_its_foundation_first() -> None:
    # 2H fits on the 3S of column 1 too, but its foundation comes first.
    position = table("3S", "9D", "8C", "2H", foundations="AH")
    assert tap(position, "2H") == "2H-f"


def test_otherwise_a_tap_picks_the_longest_column_that_takes_the_card() -> None:
    position = table("7S", "QD", "8D 7C", "KH", waste="6H")
    assert tap(position, "6H") == "6H-t3"


def test_between_columns_of_equal_length_the_leftmost_wins() -> None:
    position = table("8H 7S", "QD", "8D 7C", "KH", waste="6H")
    assert tap(position, "6H") == "6H-t1"


def test_an_empty_column_is_chosen_only_when_no_card_takes_the_tapped_one() -> None:
    # The reserve is empty, so columns 1 and 4 may stay empty.
    position = table("", "QD", "7S", "", waste="6H")
    assert tap(position, "6H") == "6H-t3"
    position = table("", "QD", "7D", "", waste="6H")
    assert tap(position, "6H") == "6H-t1"


def test_a_tap_moves_a_column_card_with_everything_on_it() -> None:
    position = table("9S 8H 7C", "TD", "5C", "5H", reserve="2S")
    assert tap(position, "9S") == "9S-t2"


def test_with_double_click_off_a_tap_only_sends_a_card_to_its_foundation() -> None:
    position = table("7S", "QD", "8D 7C", "KH", waste="6H")
    assert tap(position, "6H", double_click=False) is None
    position = table("3S", "9D", "8C", "2H", foundations="AH")
    assert tap(position, "2H", double_click=False) == "2H-f"


def test_a_tap_on_a_card_with_no_move_moves_nothing() -> None:
    position = table("7S", "QD", "8D 7C", "KH", waste="6H 5D")
    assert tap(position, "6H") is None  # under 5D in the waste
    assert tap(position, "KH") is None
    assert tap(position, str(position.stock[-1])) is None


def test_a_tap_on_a_foundation_card_does_nothing_even_where_it_could_go_back() -> None:
    position = table("4S", "9D", "8C", "6D", foundations="3H")
    assert "3H-t1" in moves(position, APP)
    assert tap(position, "3H") is None
    assert tap(position, "3H", double=True) is None


# --- skill --------------------------------------------------------------------------------
# A card is safe to send up when both cards of the other colour one rank below it
# (counting from the start rank) are already on their foundations; the start-rank card
# always is.


def test_the_start_rank_card_is_always_safe() -> None:
    position = table("5S", "9D", "8C", "7H", start="7", base="S", foundations="7S")
    assert is_safe_for_foundation(position, Card.parse("7H"))


def test_a_card_is_safe_once_both_lower_cards_of_the_other_colour_are_up() -> None:
    both = table("4S", "9D", "8C", "3H", foundations="2H 2C 2S")
    assert is_safe_for_foundation(both, Card.parse("3H"))
    one = table("4S", "9D", "8C", "3H", foundations="2H 2C AS")
    assert not is_safe_for_foundation(one, Card.parse("3H"))


def test_safety_counts_ranks_from_the_start_rank() -> None:
    # Start rank jack: the queen of hearts is safe once JC and JS are up.
    safe = table("KS", "9D", "8C", "QH", start="J", base="H", foundations="JH JC JS")
    assert is_safe_for_foundation(safe, Card.parse("QH"))
    unsafe = table("KS", "9D", "8C", "QH", start="J", base="H", foundations="JH JC")
    assert not is_safe_for_foundation(unsafe, Card.parse("QH"))


def test_skill_sends_a_safe_card_to_its_foundation() -> None:
    position = table("4S", "9D", "8C", "3H", foundations="2H 2C 2S")
    assert tap(position, "3H", SKILL) == "3H-f"


def test_skill_sends_an_unsafe_card_to_a_column_that_takes_it() -> None:
    position = table("4S", "9D", "8C", "3H", foundations="2H 2C AS")
    assert tap(position, "3H", SKILL) == "3H-t1"


def test_skill_sends_an_unsafe_card_up_after_all_when_no_column_takes_it() -> None:
    position = table("4H", "9D", "8C", "3H", foundations="2H 2C AS")
    assert tap(position, "3H", SKILL) == "3H-f"


def test_a_skill_double_tap_goes_straight_to_the_foundation() -> None:
    position = table("4S", "9D", "8C", "3H", foundations="2H 2C AS")
    assert tap(position, "3H", SKILL, double=True) == "3H-f"


def test_a_skill_double_tap_moves_nothing_when_the_foundation_does_not_take_the_card() -> None:
    position = table("4S", "9D", "8C", "3H", foundations="AH")
    assert tap(position, "3H", SKILL, double=True) is None
    assert tap(position, "3H", SKILL) == "3H-t1"


def test_an_app_double_tap_is_a_tap() -> None:
    position = table("7S", "QD", "8D 7C", "KH", waste="6H")
    assert tap(position, "6H", double=True) == "6H-t3"


def test_a_game_tap_plays_the_move_it_resolves_to() -> None:
    game = game_at(table("7S", "QD", "8D 7C", "KH", waste="6H"))
    assert str(game.tap("6H")) == "6H-t3"
    assert game.actions == ["6H-t3"]
    assert game.version == 1


def test_a_game_tap_with_no_move_is_refused_and_changes_nothing() -> None:
    game = game_at(table("7S", "QD", "8D 7C", "KH", waste="6H"))
    with pytest.raises(IllegalMoveError, match="KH has no move"):
        game.tap("KH")
    with pytest.raises(IllegalMoveError, match="6H has no move"):
        game.tap("6H", double_click=False)
    assert game.version == 0
