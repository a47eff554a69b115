"""The stock and the waste (SPEC §3): drawing, recycling the waste, pass limits."""

import pytest

from app.engine import IllegalMoveError, Move, Position, Rules, apply_move, check_move

from .table import cards, moves, table

DRAW = Move.parse("draw")

# Five spades in the stock, 5S on top (drawn first); every other card is in the reserve.
FIVE = table("4H", "KD", "KC", "QH", stock="AS 2S 3S 4S 5S", rest="reserve")


def draws(position: Position, rules: Rules, times: int) -> Position:
    for _ in range(times):
        position = apply_move(position, rules, DRAW)
    return position


def test_draw_three_turns_three_cards_in_order_the_third_on_top() -> None:
    after = draws(FIVE, Rules.preset_named("app", draw=3), 1)
    assert after.waste == cards("5S 4S 3S")
    assert after.stock == cards("AS 2S")


def test_draw_one_turns_one_card() -> None:
    after = draws(FIVE, Rules.preset_named("app", draw=1), 1)
    assert after.waste == cards("5S")
    assert after.stock == cards("AS 2S 3S 4S")


def test_with_fewer_cards_left_than_the_draw_count_the_rest_are_turned() -> None:
    after = draws(FIVE, Rules.preset_named("app", draw=3), 2)
    assert after.waste == cards("5S 4S 3S 2S AS")
    assert after.stock == ()


@pytest.mark.parametrize("draw", [1, 3])
def test_recycling_turns_the_waste_back_in_the_same_order(draw: int) -> None:
    rules = Rules.preset_named("app", draw=draw)
    emptied = draws(FIVE, rules, 5 if draw == 1 else 2)
    assert emptied.stock == () and emptied.pass_number == 1
    recycled = draws(emptied, rules, 1)
    assert recycled.stock == FIVE.stock[-5:]
    assert recycled.waste == ()
    assert recycled.pass_number == 2
    # The next pass deals the same sequence as the first.
    assert draws(recycled, rules, 1).waste == draws(FIVE, rules, 1).waste


def test_only_the_waste_top_plays() -> None:
    after = draws(FIVE, Rules.preset_named("app", draw=3), 1)
    assert "3S-t1" in moves(after, Rules())
    with pytest.raises(IllegalMoveError, match="4S is under 3S in the waste"):
        check_move(after, Rules(), Move.parse("4S-t1"))


def test_a_stock_card_is_face_down() -> None:
    with pytest.raises(IllegalMoveError, match="5S is face down in the stock"):
        check_move(FIVE, Rules(), Move.parse("5S-t1"))


@pytest.mark.parametrize(("draw", "draws_per_pass"), [(1, 5), (3, 2)])
@pytest.mark.parametrize("passes", [1, 2, 3])
def test_with_n_passes_the_waste_is_recycled_n_minus_one_times(
    draw: int, draws_per_pass: int, passes: int
) -> None:
    rules = Rules.preset_named("app", draw=draw, passes=passes)
    position = FIVE
    for _ in range(passes - 1):
        position = draws(position, rules, draws_per_pass + 1)  # the last draw recycles
    assert position.pass_number == passes
    position = draws(position, rules, draws_per_pass)
    assert position.stock == () and len(position.waste) == 5
    assert "draw" not in moves(position, rules)
    with pytest.raises(
        IllegalMoveError,
        match=rf"no passes through the stock are left \({passes} of {passes} used\)",
    ):
        check_move(position, rules, DRAW)
    assert "AS-f" in moves(position, rules)  # the waste's top still plays


def test_unlimited_passes_recycle_forever() -> None:
    rules = Rules.preset_named("app", draw=3, passes=None)
    position = draws(FIVE, rules, 3 * 20)
    assert position.pass_number == 21


def test_with_stock_and_waste_both_empty_there_is_nothing_to_draw() -> None:
    position = table("KH", "KD", "KC", "QH", rest="reserve")
    assert "draw" not in moves(position, Rules())
    with pytest.raises(IllegalMoveError, match="the stock and the waste are both empty"):
        check_move(position, Rules(), DRAW)
