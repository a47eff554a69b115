"""Deal codes (SPEC §2): deal numbers, the shuffle, custom decks and their long codes."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from app.engine.cards import ORDERED_DECK, Card
from app.engine.errors import InvalidCardError, InvalidCodeError, InvalidDeckError
from app.engine.rules import Rules, decode_token
from app.engine.unreadable import Unreadable, What

PREFIX = "CF1"
NUMBER_LETTERS = 7
CUSTOM_LETTERS = 48
MAX_DEAL_NUMBER = 26**NUMBER_LETTERS - 1
_MASK = (1 << 64) - 1
_DECK_PERMUTATIONS = math.factorial(52)


def _splitmix64(seed: int) -> Iterator[int]:
    state = seed & _MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


def deck_for_number(number: int) -> tuple[Card, ...]:
    """The deck `d` dealt by deal number `number` (SplitMix64 then Fisher–Yates)."""
    randoms = _splitmix64(number)
    deck = list(ORDERED_DECK)
    for i in range(51, 0, -1):
        n = i + 1
        limit = ((1 << 64) // n) * n
        x = next(randoms)
        while x >= limit:
            x = next(randoms)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def check_deck(cards: Sequence[Card | str]) -> tuple[Card, ...]:
    """The deck as cards, if it is the 52 cards each once; raises InvalidDeckError."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise InvalidDeckError(Unreadable(What.DECK_NOT_A_LIST))
    try:
        deck = tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards)
    except InvalidCardError as error:
        raise InvalidDeckError(error.fact) from None
    seen: set[Card] = set()
    for given, card in zip(cards, deck, strict=True):
        if card in seen:
            raise InvalidDeckError(Unreadable(What.DUPLICATE_CARD, str(given), cards=(card,)))
        seen.add(card)
    if len(deck) != 52:
        missing = tuple(c for c in ORDERED_DECK if c not in seen)
        raise InvalidDeckError(Unreadable(What.SHORT_DECK, low=len(deck), cards=missing))
    return deck


def deck_rank(deck: Sequence[Card]) -> int:
    """The Lehmer rank of a deck as a permutation of the ordered deck."""
    remaining = list(range(52))
    rank = 0
    for position, card in enumerate(deck):
        smaller = remaining.index(card.index)
        remaining.pop(smaller)
        rank += smaller * math.factorial(51 - position)
    return rank


def deck_from_rank(rank: int) -> tuple[Card, ...]:
    """The deck whose Lehmer rank is `rank` (0 <= rank < 52!)."""
    remaining = list(range(52))
    deck = []
    for position in range(52):
        digit, rank = divmod(rank, math.factorial(51 - position))
        deck.append(ORDERED_DECK[remaining.pop(digit)])
    return tuple(deck)


def _letters(value: int, width: int) -> str:
    out = []
    for _ in range(width):
        value, digit = divmod(value, 26)
        out.append(chr(ord("A") + digit))
    return "".join(reversed(out))


def _value(letters: str) -> int:
    value = 0
    for letter in letters:
        value = value * 26 + ord(letter) - ord("A")
    return value


@dataclass(frozen=True, slots=True)
class DealCode:
    """A deal code: the rules plus either a deal number or a custom deck.

    `str()` is the code (`CF1-D3-AAAAACL`); `DealCode.parse` reads it back.
    """

    rules: Rules
    number: int | None = None
    custom: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        if (self.number is None) == (self.custom is None):
            raise ValueError("a deal code has a deal number or a custom deck, not both")
        if self.number is not None and not 0 <= self.number <= MAX_DEAL_NUMBER:
            raise InvalidCodeError(Unreadable(What.DEAL_NUMBER_RANGE, high=MAX_DEAL_NUMBER))

    @staticmethod
    def for_deck(deck: Sequence[Card | str], rules: Rules) -> DealCode:
        """The long code of a custom deck; raises InvalidDeckError."""
        return DealCode(rules, custom=check_deck(deck))

    @staticmethod
    def parse(text: str) -> DealCode:
        """Read a code such as `CF1-D3-AAAAACL`, in any case; raises InvalidCodeError."""
        if not isinstance(text, str):
            raise InvalidCodeError(Unreadable(What.CODE_NOT_TEXT))
        # Upper-case only after checking for ASCII: "ß".upper() is "SS", which would let
        # a code of the wrong length through.
        parts = text.strip().split("-")
        if len(parts) != 3 or parts[0].upper() != PREFIX:
            raise InvalidCodeError(Unreadable(What.BAD_CODE, text))
        rules = decode_token(parts[1])
        letters = parts[2]
        if len(letters) not in (NUMBER_LETTERS, CUSTOM_LETTERS) or not (
            letters.isascii() and letters.isalpha()
        ):
            before = f"{PREFIX}-{parts[1].upper()}-"
            raise InvalidCodeError(Unreadable(What.BAD_DEAL_LETTERS, letters, before))
        value = _value(letters.upper())
        if len(letters) == NUMBER_LETTERS:
            return DealCode(rules, number=value)
        if value >= _DECK_PERMUTATIONS:
            raise InvalidCodeError(Unreadable(What.NO_SUCH_DECK, letters))
        return DealCode(rules, custom=deck_from_rank(value))

    @property
    def deck(self) -> tuple[Card, ...]:
        """The 52 cards in dealing order `d`."""
        if self.custom is not None:
            return self.custom
        assert self.number is not None
        return deck_for_number(self.number)

    @property
    def deal(self) -> str:
        """The deal part of the code: 7 or 48 letters."""
        if self.custom is not None:
            return _letters(deck_rank(self.custom), CUSTOM_LETTERS)
        assert self.number is not None
        return _letters(self.number, NUMBER_LETTERS)

    def with_rules(self, rules: Rules) -> DealCode:
        return DealCode(rules, self.number, self.custom)

    def __str__(self) -> str:
        return f"{PREFIX}-{self.rules.token}-{self.deal}"


def deal_number_of(letters: str) -> int:
    """The deal number of 7 letters (`AAAAACL` is 63); raises InvalidCodeError."""
    if len(letters) != NUMBER_LETTERS or not (letters.isascii() and letters.isalpha()):
        raise InvalidCodeError(Unreadable(What.DEAL_NUMBER_LETTERS, letters))
    return _value(letters.upper())


def deal_letters(number: int) -> str:
    """The 7 letters of deal number `number`."""
    return _letters(number, NUMBER_LETTERS)
