"""Why the rules refuse an action, as facts: a kind, the cards it names and a number or
suit. The engine's own English (the error's message) is written here; the web layer words
the same facts in the player's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from app.engine.cards import SUIT_WORD_SINGULAR, Card


class Why(StrEnum):
    """The kinds of refusal. Cards (`cards`) and numbers (`number`) each kind carries are
    listed in ENGLISH below, in the order they are named."""

    GAME_WON = "game-won"
    NO_SUCH_COLUMN = "no-such-column"
    NOTHING_TO_DRAW = "nothing-to-draw"
    NO_PASSES_LEFT = "no-passes-left"
    FACE_DOWN = "face-down"
    UNDER_IN_WASTE = "under-in-waste"
    UNDER_IN_RESERVE = "under-in-reserve"
    UNDER_ON_FOUNDATION = "under-on-foundation"
    UNDER_IN_COLUMN = "under-in-column"
    ALREADY_ON_FOUNDATION = "already-on-foundation"
    FOUNDATIONS_KEEP_CARDS = "foundations-keep-cards"
    TOP_OR_WHOLE_COLUMN = "top-or-whole-column"
    WHOLE_COLUMN_ONLY = "whole-column-only"
    FOUNDATION_STARTS_AT = "foundation-starts-at"
    FOUNDATION_FULL = "foundation-full"
    FOUNDATION_TAKES = "foundation-takes"
    ALREADY_IN_COLUMN = "already-in-column"
    DOES_NOT_FIT = "does-not-fit"
    EMPTY_COLUMN_TAKES_WASTE = "empty-column-takes-waste"
    NOTHING_TO_UNDO = "nothing-to-undo"
    NO_MOVE_FOR_TAP = "no-move-for-tap"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refusal: its kind, the cards it names (the card that would move first), a number
    (a column from 1, or the passes allowed) and a suit (0..3, a foundation's)."""

    why: Why
    cards: tuple[Card, ...] = ()
    number: int = 0
    suit: int = 0

    def __str__(self) -> str:
        """The engine's English: `9H is under 4C in the reserve`."""
        return ENGLISH[self.why](self)


def _with_article(card: Card) -> str:
    """The card with its article: `a 5 of clubs`, `an 8 of hearts`, `an ace of spades`."""
    return f"an {card.name}" if card.rank in (0, 7) else f"a {card.name}"


def _first(r: Refusal) -> Card:
    return r.cards[0]


def _second(r: Refusal) -> Card:
    return r.cards[1]


ENGLISH: dict[Why, Callable[[Refusal], str]] = {
    Why.GAME_WON: lambda r: "the game is won",
    Why.NO_SUCH_COLUMN: lambda r: f"there is no column {r.number}",
    Why.NOTHING_TO_DRAW: lambda r: "the stock and the waste are both empty",
    Why.NO_PASSES_LEFT: lambda r: (
        f"no passes through the stock are left ({r.number} of {r.number} used)"
    ),
    Why.FACE_DOWN: lambda r: f"{_first(r)} is face down in the stock",
    Why.UNDER_IN_WASTE: lambda r: f"{_first(r)} is under {_second(r)} in the waste",
    Why.UNDER_IN_RESERVE: lambda r: f"{_first(r)} is under {_second(r)} in the reserve",
    Why.UNDER_ON_FOUNDATION: lambda r: f"{_first(r)} is under {_second(r)} on its foundation",
    Why.UNDER_IN_COLUMN: lambda r: f"{_first(r)} is under {_second(r)} in column {r.number}",
    Why.ALREADY_ON_FOUNDATION: lambda r: f"{_first(r)} is already on its foundation",
    Why.FOUNDATIONS_KEEP_CARDS: lambda r: (
        "cards never come back from the foundations in these rules"
    ),
    Why.TOP_OR_WHOLE_COLUMN: lambda r: (
        "only the last card of a column or the whole column can move"
    ),
    Why.WHOLE_COLUMN_ONLY: lambda r: "only a whole column can move",
    Why.FOUNDATION_STARTS_AT: lambda r: (
        f"the {SUIT_WORD_SINGULAR[r.suit]} foundation starts at {_first(r)}"
    ),
    Why.FOUNDATION_FULL: lambda r: f"the {SUIT_WORD_SINGULAR[r.suit]} foundation is full",
    Why.FOUNDATION_TAKES: lambda r: (
        f"the {SUIT_WORD_SINGULAR[r.suit]} foundation takes {_first(r)} next"
    ),
    Why.ALREADY_IN_COLUMN: lambda r: f"{_first(r)} is already in column {r.number}",
    Why.DOES_NOT_FIT: lambda r: (
        f"{_with_article(_first(r))} cannot go on {_with_article(_second(r))}"
    ),
    Why.EMPTY_COLUMN_TAKES_WASTE: lambda r: "an empty column takes only the top card of the waste",
    Why.NOTHING_TO_UNDO: lambda r: "there is nothing to undo",
    Why.NO_MOVE_FOR_TAP: lambda r: f"{_first(r)} has no move",
}
