"""Input the engine cannot read, as facts: a kind and the values that were wrong (the text
as given, the rule option or letter, the expected choices or range, the cards). The
engine's own English (the error's message) is written here; the web layer words the same
facts in the player's language (app/i18n/wording.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.engine.cards import Card


class What(StrEnum):
    """The kinds of unreadable input. The values each kind carries are named in ENGLISH
    below: `text` the value as given (shown quoted), `name` a rule option, rule letter or
    rules token, `choices` what would have been read, `low`..`high` a range, `cards`."""

    # Cards and moves
    NO_SUCH_CARD = "no-such-card"  # low: the rank, high: the suit
    UNKNOWN_CARD = "unknown-card"
    UNKNOWN_RANK = "unknown-rank"
    UNKNOWN_MOVE = "unknown-move"
    # Decks
    DECK_NOT_A_LIST = "deck-not-a-list"
    DUPLICATE_CARD = "duplicate-card"  # text: as given, cards: the card
    SHORT_DECK = "short-deck"  # low: the cards given, cards: the missing ones
    # Rules and levels
    UNKNOWN_PRESET = "unknown-preset"
    UNKNOWN_OPTION = "unknown-option"
    RULES_NOT_AN_OBJECT = "rules-not-an-object"
    BAD_CHOICE = "bad-choice"  # name: the option, text: the value
    BAD_COUNT = "bad-count"  # name: the option, text: the value, low..high or null
    BAD_SWITCH = "bad-switch"  # name: the option, text: the value; true or false
    UNKNOWN_LEVEL = "unknown-level"
    # Deal codes and their rules token
    CODE_NOT_TEXT = "code-not-text"
    BAD_CODE = "bad-code"
    UNKNOWN_RULES = "unknown-rules"
    UNKNOWN_RULE_LETTER = "unknown-rule-letter"  # name: the letter, text: the token
    RULE_LETTER_TWICE = "rule-letter-twice"  # name: the letter, text: the token
    BAD_RULE_LETTER_VALUE = "bad-rule-letter-value"  # name: the letter, text: the value
    RULE_TAKES_A_NUMBER = "rule-takes-a-number"  # name: the letter, text: the value
    RULES_IN_CODE = "rules-in-code"  # text: the token, cause: what is wrong with them
    NOT_CANONICAL = "not-canonical"  # text: the token, name: its canonical form
    BAD_DEAL_LETTERS = "bad-deal-letters"  # name: the code up to the deal, text: the deal
    NO_SUCH_DECK = "no-such-deck"  # text: the 48 letters
    DEAL_NUMBER_RANGE = "deal-number-range"  # low..high
    DEAL_NUMBER_LETTERS = "deal-number-letters"
    # A position stored by the server
    NOT_A_STORED_POSITION = "not-a-stored-position"


@dataclass(frozen=True, slots=True)
class Unreadable:
    """What could not be read: its kind and the values it names (see `What`)."""

    what: What
    text: object = ""
    name: str = ""
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    cards: tuple[Card, ...] = ()
    cause: Unreadable | None = None

    def __str__(self) -> str:
        """The engine's English: `unknown card 'ZZ': expected a rank of ... then a suit ...`."""
        return ENGLISH[self.what](self)


def one_of(choices: Sequence[str]) -> str:
    """`a or b`, `a, b, or c` (as Babel writes an English list of choices)."""
    if len(choices) < 3:
        return " or ".join(choices)
    return f"{', '.join(choices[:-1])}, or {choices[-1]}"


def all_of(items: Sequence[str]) -> str:
    """`a and b`, `a, b, and c` (as Babel writes an English list)."""
    if len(items) < 3:
        return " and ".join(items)
    return f"{', '.join(items[:-1])}, and {items[-1]}"


def quoted(value: object) -> str:
    """A value as given, quoted: `'ZZ'`, `2`, `None`."""
    return repr(value)


def _names(cards: Sequence[Card]) -> str:
    return all_of([card.name for card in cards])


def _notation(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _short_deck(u: Unreadable) -> str:
    given = f"{u.low} {'card' if u.low == 1 else 'cards'}, need 52 (missing {_notation(u.cards)})"
    if len(u.cards) > MISSING_IN_WORDS:
        return given
    return f"{given}: the deck lacks the {_names(u.cards)}"


# A short deck names its missing cards in words too when there are at most this many.
MISSING_IN_WORDS = 3
RANKS_AND_SUITS = "expected a rank of A23456789TJQK then a suit of CDHS"
CODE_FORM = "CF1-<rules>-<deal>"
RULES_FORM = (
    "expected D3 or D1 (app), C3/C1 (classic) or S3/S1 (skill), "
    "optionally followed by option overrides"
)

ENGLISH: dict[What, Callable[[Unreadable], str]] = {
    What.NO_SUCH_CARD: lambda u: f"no card has rank {u.low} and suit {u.high}",
    What.UNKNOWN_CARD: lambda u: f"unknown card {quoted(u.text)}: {RANKS_AND_SUITS}",
    What.UNKNOWN_RANK: lambda u: f"unknown rank {quoted(u.text)}: expected one of A23456789TJQK",
    What.UNKNOWN_MOVE: lambda u: (
        f"unknown move {quoted(u.text)}: expected draw, a card to its foundation such as "
        "8H-f, or a card to a column such as KH-t4"
    ),
    What.DECK_NOT_A_LIST: lambda u: "a deck is a list of 52 cards",
    What.DUPLICATE_CARD: lambda u: (
        f"duplicate card {u.text}: the {_names(u.cards)} is in the deck twice"
    ),
    What.SHORT_DECK: _short_deck,
    What.UNKNOWN_PRESET: lambda u: f"unknown preset {quoted(u.text)}: expected {one_of(u.choices)}",
    What.UNKNOWN_OPTION: lambda u: (
        f"unknown rule option {quoted(u.text)}: expected {one_of(u.choices)}"
    ),
    What.RULES_NOT_AN_OBJECT: lambda u: "rules must be an object of options",
    What.BAD_CHOICE: lambda u: (
        f"bad value {quoted(u.text)} for rule {quoted(u.name)}: expected {one_of(u.choices)}"
    ),
    What.BAD_COUNT: lambda u: (
        f"bad value {quoted(u.text)} for rule {quoted(u.name)}: expected null (unlimited) "
        f"or a whole number from {u.low:,} to {u.high:,}"
    ),
    What.BAD_SWITCH: lambda u: (
        f"bad value {quoted(u.text)} for rule {quoted(u.name)}: expected true or false"
    ),
    What.UNKNOWN_LEVEL: lambda u: f"unknown level {quoted(u.text)}: expected {one_of(u.choices)}",
    What.CODE_NOT_TEXT: lambda u: "a deal code is text such as CF1-D3-AAAAACL",
    What.BAD_CODE: lambda u: (
        f"bad deal code {quoted(u.text)}: expected {CODE_FORM}, e.g. CF1-D3-AAAAACL"
    ),
    What.UNKNOWN_RULES: lambda u: f"unknown rules {quoted(u.text)}: {RULES_FORM}",
    What.UNKNOWN_RULE_LETTER: lambda u: (
        f"unknown rule letter {quoted(u.name)} in rules {quoted(u.text)}"
    ),
    What.RULE_LETTER_TWICE: lambda u: (
        f"rule letter {quoted(u.name)} appears twice in rules {quoted(u.text)}"
    ),
    What.BAD_RULE_LETTER_VALUE: lambda u: (
        f"bad value {quoted(u.text)} for rule letter {quoted(u.name)}"
    ),
    What.RULE_TAKES_A_NUMBER: lambda u: (
        f"rule letter {quoted(u.name)} in a deal code takes a number, not {quoted(u.text)}"
    ),
    What.RULES_IN_CODE: lambda u: f"rules {quoted(u.text)}: {u.cause}",
    What.NOT_CANONICAL: lambda u: (
        f"rules {quoted(u.text)} are not in canonical form; write them as {u.name}"
    ),
    What.BAD_DEAL_LETTERS: lambda u: (
        f"expected 7 or 48 letters after {u.name}, got {quoted(u.text)}"
    ),
    What.NO_SUCH_DECK: lambda u: (
        f"the 48 letters of a custom deal ({quoted(u.text)}) stand for a number of 52! or "
        "more; no deck has that code"
    ),
    What.DEAL_NUMBER_RANGE: lambda u: f"deal number must be from {u.low:,} to {u.high:,}",
    What.DEAL_NUMBER_LETTERS: lambda u: f"a deal number is 7 letters A-Z, got {quoted(u.text)}",
    What.NOT_A_STORED_POSITION: lambda u: f"not a stored position: {quoted(u.text)}",
}
