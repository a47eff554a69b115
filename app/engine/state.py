"""Compact storable game state: a position as short text, and an undo stack kept by log index.

The deal code plus the action log is the truth (`Game.replay`). Replaying a long
log on every request is slow, so a store keeps, beside the log, the current
position as text and, in each move's log entry, the undo entry that move pushed
(the position and points before it, and the log index of the entry below it).
`Game.restore` with an `UndoStack` rebuilds a playable game from that in constant
time: the stack loads an entry only when an undo pops it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from app.engine.cards import ORDERED_DECK, Card
from app.engine.errors import InvalidCodeError
from app.engine.position import Position
from app.engine.unreadable import Unreadable, What

# One character per card: the ordered deck's index into A..Z a..z.
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_CHAR = {card: _ALPHABET[card.index] for card in ORDERED_DECK}
_CARD = {_ALPHABET[card.index]: card for card in ORDERED_DECK}
_COUNT = "0123456789ABCD"  # a foundation holds 0..13 cards
# _ON_FOUNDATION[start_rank][suit][count]: the letters of the cards a foundation holds.
_ON_FOUNDATION = [
    [
        ["".join(_ALPHABET[suit * 13 + (start + i) % 13] for i in range(n)) for n in range(14)]
        for suit in range(4)
    ]
    for start in range(13)
]


def _pile(cards: tuple[Card, ...]) -> str:
    return "".join([_CHAR[card] for card in cards])


def _cards(text: str) -> tuple[Card, ...]:
    return tuple([_CARD[char] for char in text])


def encode_position(position: Position) -> str:
    """The position as about 60 characters of ASCII; `decode_position` reads it back.

    Fields, separated by dots: stock, waste, reserve, columns 1-4 (each pile
    bottom to top, one letter a card), the four foundation counts (C D H S), the
    pass number, the start rank and the base suit.
    """
    counts = "".join([_COUNT[n] for n in position.foundations])
    return ".".join(
        (
            _pile(position.stock),
            _pile(position.waste),
            _pile(position.reserve),
            *(_pile(column) for column in position.tableau),
            counts,
            str(position.pass_number),
            _ALPHABET[position.start_rank * 4 + position.base_suit],
        )
    )


def decode_position(text: str) -> Position:
    """The position written by `encode_position`; raises InvalidCodeError on anything else."""
    try:
        stock, waste, reserve, t1, t2, t3, t4, counts, pass_text, base = text.split(".")
        foundations = [_COUNT.index(char) for char in counts]
        start = _ALPHABET.index(base)
        piles = _ON_FOUNDATION[start // 4]
        # Every card exactly once: on the table, or on a foundation.
        every = stock + waste + reserve + t1 + t2 + t3 + t4
        every += "".join(piles[suit][count] for suit, count in enumerate(foundations))
        if len(foundations) != 4 or len(every) != 52 or len(set(every)) != 52:
            raise ValueError("not the 52 cards once each")
        return Position(
            stock=_cards(stock),
            waste=_cards(waste),
            reserve=_cards(reserve),
            foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
            tableau=(_cards(t1), _cards(t2), _cards(t3), _cards(t4)),
            pass_number=int(pass_text),
            start_rank=start // 4,
            base_suit=start % 4,
        )
    except (ValueError, KeyError, IndexError):
        raise InvalidCodeError(Unreadable(What.NOT_A_STORED_POSITION, text[:80])) from None


class UndoEntry(NamedTuple):
    """What a move pushed on the undo stack, as a store keeps it beside the move."""

    position: Position
    points: int
    below: int | None
    """The log index (version) of the entry under this one, or None."""


class UndoStack:
    """A game's undo stack (an `UndoHistory`) that knows each entry by the log index of
    the move that pushed it.

    It keeps the rules' limit as the bounded deque of a new `Game` does, but holds only
    the entries pushed since it was made (`pushed`, for the store to keep); older ones
    come from `load(index)` when popped. `top` and `count` are what a store saves to
    resume the stack; `version` is the log index it has reached.
    """

    def __init__(
        self,
        limit: int | None,
        *,
        version: int = 0,
        top: int | None = None,
        count: int = 0,
        load: Callable[[int], UndoEntry] | None = None,
    ) -> None:
        self.limit = limit
        self.version = version
        self.top = top
        self.count = count
        self.pushed: dict[int, UndoEntry] = {}
        self._load = load

    def __len__(self) -> int:
        return self.count

    def append(self, entry: tuple[Position, int]) -> None:
        # The game pushes exactly once per applied move, so this entry belongs
        # to the next log index.
        self.version += 1
        if self.limit == 0:
            return
        self.pushed[self.version] = UndoEntry(entry[0], entry[1], self.top if self.count else None)
        self.top = self.version
        self.count = self.count + 1 if self.limit is None else min(self.count + 1, self.limit)

    def pop(self) -> tuple[Position, int]:
        if not self.count or self.top is None:
            raise IndexError("pop from an empty undo stack")
        self.version += 1  # the undo is itself the next logged action
        entry = self.pushed.get(self.top)
        if entry is None:
            if self._load is None:
                raise LookupError(f"undo entry {self.top} is not loaded")
            entry = self._load(self.top)
        self.count -= 1
        self.top = entry.below if self.count else None
        return entry.position, entry.points
