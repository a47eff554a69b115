"""Cards, ranks, suits and colours; rank arithmetic that wraps from king to ace."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.engine.errors import InvalidCardError
from app.engine.unreadable import Unreadable, What

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
SUIT_WORD_SINGULAR = ("club", "diamond", "heart", "spade")
RED_SUITS = frozenset((1, 2))


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: `rank` 0..12 (ace..king) and `suit` 0..3 (clubs, diamonds, hearts, spades).

    `str()` is the notation (`TC`); `Card.parse` reads it back. There are exactly
    52 instances: `Card(rank, suit)`, `parse`, `of`, `from_index`, copies and
    unpickling all give the shared one, so equality and hashing are by identity.
    """

    rank: int
    suit: int
    # Set once per card in __post_init__; plain attributes because the rules engine
    # reads them in its innermost loops.
    index: int = field(init=False, repr=False)
    """The card's place in the ordered deck (AC, 2C, …, KC, AD, …, KS): 0..51."""
    red: bool = field(init=False, repr=False)

    _all: ClassVar[tuple[Card, ...]] = ()
    _by_name: ClassVar[dict[str, Card]]

    def __new__(cls, rank: int, suit: int) -> Card:
        if cls._all:
            if not (0 <= rank < 13 and 0 <= suit < 4):
                raise InvalidCardError(Unreadable(What.NO_SUCH_CARD, low=rank, high=suit))
            return cls._all[suit * 13 + rank]
        return object.__new__(cls)  # only while the 52 cards are made, below

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.suit * 13 + self.rank)
        object.__setattr__(self, "red", self.suit in RED_SUITS)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.from_index, (self.index,))

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card such as `TC` or `qh`; raises InvalidCardError."""
        # ASCII only: "ſ".upper() is "S", so "Aſ" would otherwise read as the ace of spades.
        card = Card._by_name.get(text.upper()) if isinstance(text, str) and text.isascii() else None
        if card is None:
            raise InvalidCardError(Unreadable(What.UNKNOWN_CARD, text))
        return card

    @staticmethod
    def lookup(name: str) -> Card | None:
        """The card named exactly `name` (upper case, `TC`), or None."""
        return Card._by_name.get(name)

    @staticmethod
    def of(rank: int, suit: int) -> Card:
        return Card._all[suit * 13 + rank]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card at `index` of the ordered deck (AC, 2C, …, KC, AD, …, KS)."""
        return Card._all[index]

    @property
    def name(self) -> str:
        """The card in words: `queen of clubs`."""
        return f"{RANK_WORDS[self.rank]} of {SUIT_WORDS[self.suit]}"

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


Card._all = tuple(Card(i % 13, i // 13) for i in range(52))
Card._by_name = {str(c): c for c in Card._all}

ORDERED_DECK: tuple[Card, ...] = Card._all


def parse_rank(text: str) -> int:
    """A rank letter (`T` for ten) to 0..12; raises InvalidCardError."""
    index = RANKS.find(text.upper()) if len(text) == 1 else -1
    if index < 0:
        raise InvalidCardError(Unreadable(What.UNKNOWN_RANK, text))
    return index


def next_rank(rank: int) -> int:
    """The rank above `rank`, a king followed by an ace."""
    return (rank + 1) % 13


def fits_on(card: Card, under: Card) -> bool:
    """A card goes on `under` in a column: other colour, one rank lower (a king on an ace)."""
    return card.red != under.red and (card.rank + 1) % 13 == under.rank
