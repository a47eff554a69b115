"""Deal codes, the shuffle, custom decks, rules tokens, card and move notation (SPEC §1, §2, §4)."""

import copy
import dataclasses
import math
import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import (
    PRESETS,
    Card,
    DealCode,
    InvalidCardError,
    InvalidCodeError,
    InvalidDeckError,
    InvalidMoveError,
    InvalidRulesError,
    Move,
    Position,
    Rules,
    deck_for_number,
)
from app.engine.cards import ORDERED_DECK
from app.engine.codes import MAX_DEAL_NUMBER

from .strategies import any_rules


@pytest.mark.parametrize(
    ("letters", "base", "reserve_top", "columns", "stock_first", "reserve_bottom"),
    [
        ("AAAAAAA", "8C", "9H", "QS KH 5H 2C", "3H 5C AH", "8S"),
        ("AAAAAAB", "2D", "3C", "JH 5H 7H 4H", "2C AD 6S", "7D"),
        ("AAAAACL", "2C", "TC", "9C 7S AH 6H", "KC AS AC", "3S"),
        ("ZZZZZZZ", "6H", "3C", "8H TH JS 6D", "2H QC 2D", "6S"),
        ("HELLOAB", "9S", "7D", "QH 3C 8C QD", "TD 8H AS", "3H"),
    ],
)
def test_golden_deals(
    letters: str,
    base: str,
    reserve_top: str,
    columns: str,
    stock_first: str,
    reserve_bottom: str,
) -> None:
    for draw in (1, 3):  # the draw count does not change the cards
        position = Position.deal(DealCode.parse(f"CF1-D{draw}-{letters}").deck)
        base_card = Card.parse(base)
        assert position.foundation_cards(base_card.suit) == (base_card,)
        assert sum(position.foundations) == 1
        assert str(position.reserve[-1]) == reserve_top
        assert str(position.reserve[0]) == reserve_bottom
        assert len(position.reserve) == 13
        assert " ".join(str(column[0]) for column in position.tableau) == columns
        assert " ".join(str(card) for card in position.stock[:-4:-1]) == stock_first
        assert len(position.stock) == 34
        assert position.waste == ()


def test_deal_letters_are_a_base_26_number() -> None:
    assert DealCode.parse("CF1-D3-AAAAACL").number == 63
    assert DealCode.parse("CF1-D3-ZZZZZZZ").number == 8031810175 == MAX_DEAL_NUMBER
    assert DealCode.parse("CF1-D3-AAAAAAA").number == 0


def test_the_long_code_of_deal_zero() -> None:
    long = "WSOYIGMYLSTMWODBOQDPWOQRYXRJCKQCJZHTTVIBHGHEJAAY"
    code = DealCode.for_deck(deck_for_number(0), Rules())
    assert code.deal == long
    assert str(code) == f"CF1-D3-{long}"
    assert DealCode.parse(f"cf1-d3-{long.lower()}").deck == deck_for_number(0)


def test_the_ordered_deck_is_long_code_zero_and_the_reversed_deck_the_last() -> None:
    assert DealCode.for_deck(ORDERED_DECK, Rules()).deal == "A" * 48
    last = DealCode.for_deck(ORDERED_DECK[::-1], Rules())
    assert DealCode.parse(str(last)).deck == ORDERED_DECK[::-1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("draw", [1, 3])
def test_every_preset_has_a_two_character_token(preset: str, draw: int) -> None:
    rules = Rules.preset_named(preset, draw=draw)
    assert rules.token == {"app": "D", "classic": "C", "skill": "S"}[preset] + str(draw)
    assert DealCode.parse(f"CF1-{rules.token}-HELLOAB").rules == rules


@pytest.mark.parametrize(
    ("rules", "token"),
    [
        (Rules.preset_named("skill", passes=3), "S3P3"),
        (Rules.preset_named("app", tableau_moves="all", foundation_to_tableau=False), "D3TWF0"),
        (Rules.preset_named("classic", draw=1, undo_limit=5, autocomplete=True), "C1U5A1"),
        (Rules.preset_named("app", undo_limit=None, scoring="skill"), "D3UXGS"),
        (Rules.preset_named("skill", passes=None, empty_column="any"), "S3EA"),
        (Rules.preset_named("classic", tableau_moves="top-or-all", passes=12), "C3P12TO"),
        (Rules.preset_named("app", undo_limit=0), "D3U0"),
    ],
)
def test_overrides_extend_the_token_in_a_fixed_order(rules: Rules, token: str) -> None:
    assert rules.token == token
    code = DealCode(rules, number=63)
    assert str(code) == f"CF1-{token}-AAAAACL"
    assert DealCode.parse(str(code).lower()) == code
    assert DealCode.parse(str(code)).rules.to_dict() == rules.to_dict()


@settings(max_examples=150, deadline=None)
@given(
    rules=any_rules(),
    deal=st.one_of(
        st.integers(0, MAX_DEAL_NUMBER),
        st.permutations(ORDERED_DECK).map(tuple),
    ),
)
def test_any_code_reads_back_as_itself_in_any_case(
    rules: Rules, deal: int | tuple[Card, ...]
) -> None:
    code = DealCode(rules, number=deal) if isinstance(deal, int) else DealCode.for_deck(deal, rules)
    text = str(code)
    assert text == text.upper()
    assert len(text.rsplit("-", 1)[1]) == (7 if isinstance(deal, int) else 48)
    for spelling in (text, text.lower(), text.swapcase()):
        again = DealCode.parse(spelling)
        assert again == code
        assert again.deck == code.deck
        assert str(again) == text


def test_a_custom_deck_may_be_written_with_card_names_in_any_case() -> None:
    deck = list(deck_for_number(7))
    names = [str(card).lower() for card in deck]
    assert DealCode.for_deck(names, Rules()).deck == tuple(deck)


def test_with_rules_keeps_the_deal() -> None:
    code = DealCode.parse("CF1-D3-HELLOAB")
    classic = code.with_rules(Rules.preset_named("classic"))
    assert str(classic) == "CF1-C3-HELLOAB"
    assert classic.deck == code.deck


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("CF1-D3-AAAA", "expected 7 or 48 letters after CF1-D3-"),
        ("CF1-D3-" + "A" * 47, "expected 7 or 48 letters after CF1-D3-"),
        ("CF1-D1-AAAAAA1", "expected 7 or 48 letters after CF1-D1-"),
        ("CF1-D3-", "expected 7 or 48 letters"),
        ("CF1-X3-AAAAAAA", "unknown rules 'X3'"),
        ("CF1-D2-AAAAAAA", "unknown rules 'D2'"),
        ("CF1-D3Z1-AAAAAAA", "unknown rule letter 'Z'"),
        ("CF1-D3P3P3-AAAAAAA", "appears twice"),
        ("CF1-D3TQ-AAAAAAA", "bad value 'Q' for rule letter 'T'"),
        ("CF1-D3PX-AAAAAAA", "takes a number"),
        ("CF1-D3P100-AAAAAAA", "passes"),
        ("CF1-D3TA-AAAAAAA", "not in canonical form; write them as D3"),
        ("CF1-D3F0TW-AAAAAAA", "write them as D3TWF0"),
        ("CF2-D3-AAAAAAA", "expected CF1-<rules>-<deal>"),
        ("CF1-AAAAAAA", "expected CF1-<rules>-<deal>"),
        ("", "expected CF1-<rules>-<deal>"),
        ("CF1-D3-" + "Z" * 48, "52! or more"),
        ("CF1-D3-AAAAAß", "expected 7 or 48 letters"),
        ("CF1-D3-ÄAAAAAA", "expected 7 or 48 letters"),
        ("CF1-ſ3-AAAAAAA", "unknown rules"),
    ],
)
def test_a_bad_code_is_refused_saying_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidCodeError, match=re.escape(message)):
        DealCode.parse(text)


def test_the_first_48_letter_value_past_the_last_deck_is_refused() -> None:
    def letters(value: int) -> str:
        out = ""
        for _ in range(48):
            value, digit = divmod(value, 26)
            out = chr(ord("A") + digit) + out
        return out

    last = math.factorial(52) - 1
    assert DealCode.parse("CF1-D3-" + letters(last)).deck == ORDERED_DECK[::-1]
    with pytest.raises(InvalidCodeError, match="52! or more"):
        DealCode.parse("CF1-D3-" + letters(last + 1))


def test_a_deck_with_a_card_twice_names_it() -> None:
    deck = [str(card) for card in deck_for_number(3)]
    deck[deck.index("2C")] = "7H"
    with pytest.raises(InvalidDeckError, match="duplicate card 7H"):
        DealCode.for_deck(deck, Rules())


def test_a_short_deck_says_how_many_cards_and_which_are_missing() -> None:
    deck = [str(card) for card in ORDERED_DECK if str(card) != "QD"]
    with pytest.raises(InvalidDeckError, match=r"51 cards, need 52 \(missing QD\)"):
        DealCode.for_deck(deck, Rules())


@pytest.mark.parametrize("bad", ["1C", "AX", "10H", "", 12, "A"])
def test_a_deck_with_an_unknown_card_names_it(bad: object) -> None:
    deck: list[object] = [str(card) for card in ORDERED_DECK]
    deck[5] = bad
    with pytest.raises(InvalidDeckError, match="unknown card"):
        DealCode.for_deck(deck, Rules())  # type: ignore[arg-type]


def test_a_deck_must_be_a_list() -> None:
    with pytest.raises(InvalidDeckError, match="a list of 52 cards"):
        DealCode.for_deck("AC 2C 3C", Rules())


def test_card_names_read_in_any_case_and_write_in_upper_case() -> None:
    for card in ORDERED_DECK:
        assert Card.parse(str(card)) is card
        assert Card.parse(str(card).lower()) is card
        assert Card.lookup(str(card)) is card
        assert Card.from_index(card.index) is card
        assert Card.of(card.rank, card.suit) is card
    assert Card.lookup("tc") is None
    assert Card.parse("QC").name == "queen of clubs"
    assert Card.parse("TD").name == "10 of diamonds"
    assert Card.parse("TD").red and Card.parse("AH").red and not Card.parse("KS").red


def test_there_are_exactly_52_cards_however_a_card_is_made() -> None:
    queen = Card.parse("QC")
    assert Card(11, 0) is queen
    assert copy.copy(queen) is queen and copy.deepcopy(queen) is queen
    assert pickle.loads(pickle.dumps(queen)) is queen
    assert dataclasses.replace(queen, suit=2) is Card.parse("QH")
    assert len({*ORDERED_DECK, *(Card.parse(str(card)) for card in ORDERED_DECK)}) == 52
    with pytest.raises(InvalidCardError, match="no card has rank 13"):
        Card(13, 0)


@pytest.mark.parametrize("bad", ["", "T", "1C", "10C", "TCX", "XC", "Aſ", "ﬀ"])
def test_an_unknown_card_is_refused(bad: str) -> None:
    with pytest.raises(InvalidCardError, match="unknown card"):
        Card.parse(bad)


def test_every_move_notation_reads_back_as_itself() -> None:
    texts = ["draw"] + [
        f"{card}-{target}" for card in ORDERED_DECK for target in ("f", "t1", "t2", "t3", "t4")
    ]
    for text in texts:
        move = Move.parse(text)
        assert str(move) == text
        assert Move.parse(str(move)) == move
    assert Move.parse("KH-t4") == Move(Card.parse("KH"), 3)
    assert Move.parse("draw").is_draw


@pytest.mark.parametrize(
    "bad", ["Draw", "DRAW", "8h-f", "8H-F", "8H-t5", "8H-t0", "8H-f1", "8H", "8H-", "1H-f", ""]
)
def test_move_notation_is_case_sensitive_and_strict(bad: str) -> None:
    with pytest.raises(InvalidMoveError, match="unknown move"):
        Move.parse(bad)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"preset": "easy"}, "unknown preset 'easy'"),
        ({"draw": 2}, "bad value 2 for rule 'draw': expected 1 or 3"),
        ({"draw": True}, "rule 'draw'"),
        ({"passes": 0}, "rule 'passes'"),
        ({"tableau_moves": "some"}, "rule 'tableau_moves'"),
        ({"undo_limit": -1}, "rule 'undo_limit'"),
        ({"autocomplete": "yes"}, "rule 'autocomplete'"),
        ({"colour": "red"}, "unknown rule option 'colour'"),
    ],
)
def test_bad_rules_say_which_option_is_wrong(data: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_dict(data)


def test_rules_read_back_from_their_dict() -> None:
    rng = random.Random(5)
    for preset in PRESETS:
        rules = Rules.preset_named(preset, draw=rng.choice((1, 3)), passes=rng.randint(1, 5))
        assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({}) == PRESETS["app"]
    assert Rules.from_dict({"preset": "skill", "draw": 1}).to_dict()["tableau_moves"] == (
        "top-or-all"
    )
