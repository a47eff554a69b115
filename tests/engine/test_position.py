"""Where each card lies (SPEC §8 pile names) and the opening deal (SPEC §2)."""

import pytest

from app.engine import Card, DealCode, Game, InvalidMoveError, Position, pile_name

from .table import table

BOARD = table("7H 6C", "8H", "9S", "QD", reserve="9H 4C", waste="6S 5D", foundations="3H 2S")


@pytest.mark.parametrize(
    ("card", "pile"),
    [
        ("7H", "t1"),
        ("6C", "t1"),
        ("8H", "t2"),
        ("QD", "t4"),
        ("9H", "r"),
        ("4C", "r"),
        ("6S", "w"),
        ("AH", "fH"),
        ("3H", "fH"),
        ("2S", "fS"),
        ("2D", "stock"),
    ],
)
def test_every_card_is_in_one_named_pile(card: str, pile: str) -> None:
    assert pile_name(BOARD, Card.parse(card)) == pile


def test_the_deal_puts_thirteen_in_the_reserve_one_up_four_out_and_34_in_the_stock() -> None:
    deck = DealCode.parse("CF1-D3-HELLOAB").deck
    position = Position.deal(deck)
    assert position.reserve == deck[0:13]
    assert position.foundation_cards(deck[13].suit) == (deck[13],)
    assert position.start_rank == deck[13].rank and position.base_suit == deck[13].suit
    assert position.tableau == tuple((card,) for card in deck[14:18])
    assert position.stock[::-1] == deck[18:]
    assert position.pass_number == 1
    assert not position.won


def test_a_game_starts_at_the_deal_with_nothing_played() -> None:
    game = Game(DealCode.parse("CF1-D3-HELLOAB"))
    assert game.position == Position.deal(game.code.deck)
    assert (game.version, game.moves, game.score, game.undo_available) == (0, 0, 0, 0)
    assert game.record() == {"code": "CF1-D3-HELLOAB", "actions": []}


def test_a_bad_action_in_a_stored_log_is_refused() -> None:
    with pytest.raises(InvalidMoveError, match="unknown move 'jump'"):
        Game.replay("CF1-D3-HELLOAB", ["draw", "jump"])
