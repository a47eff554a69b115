"""Input the engine cannot read, one case of each kind (app/engine/unreadable.py), the
check that a translated sentence has no English left, and the message a page shows:
shared by tests/i18n and tests/web."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from app import i18n
from app.engine import Card, DealCode, Move, Rules, UnreadableError, parse_level, parse_rank
from app.engine.codes import check_deck, deal_number_of
from app.engine.state import decode_position
from app.engine.unreadable import What
from app.i18n import wording
from tests.shared import SEED_DECK

TRANSLATED = ("pl", "he", "ru")

# Each kind with an input that raises it and the value it must name (as typed, quoted
# where the player typed it).
CASES: dict[What, tuple[Callable[[], object], str]] = {
    What.NO_SUCH_CARD: (lambda: Card(13, 0), "13"),
    What.UNKNOWN_CARD: (lambda: Card.parse("1C"), "'1C'"),
    What.UNKNOWN_RANK: (lambda: parse_rank("X"), "'X'"),
    What.UNKNOWN_MOVE: (lambda: Move.parse("QC-t5"), "'QC-t5'"),
    What.DECK_NOT_A_LIST: (lambda: check_deck("AC 2C"), "52"),
    What.DUPLICATE_CARD: (lambda: check_deck([*SEED_DECK[:51], "ac"]), "ac"),
    What.SHORT_DECK: (lambda: check_deck(SEED_DECK[:51]), "KS"),
    What.UNKNOWN_PRESET: (lambda: Rules.preset_named("hoyle"), "'hoyle'"),
    What.UNKNOWN_OPTION: (lambda: Rules.from_dict({"colour": "red"}), "'colour'"),
    What.RULES_NOT_AN_OBJECT: (lambda: Rules.from_dict([1, 2]), ""),  # type: ignore[arg-type]
    What.BAD_CHOICE: (lambda: Rules.from_dict({"draw": 2}), "'draw'"),
    What.BAD_COUNT: (lambda: Rules.from_dict({"passes": 0}), "'passes'"),
    What.BAD_SWITCH: (lambda: Rules.from_dict({"autocomplete": "yes"}), "'yes'"),
    What.UNKNOWN_LEVEL: (lambda: parse_level("expert"), "'expert'"),
    What.CODE_NOT_TEXT: (lambda: DealCode.parse(5), "CF1-D3-AAAAACL"),  # type: ignore[arg-type]
    What.BAD_CODE: (lambda: DealCode.parse("nonsense"), "'nonsense'"),
    What.UNKNOWN_RULES: (lambda: DealCode.parse("CF1-X3-AAAAAAA"), "'X3'"),
    What.UNKNOWN_RULE_LETTER: (lambda: DealCode.parse("CF1-D3Z1-AAAAAAA"), "'Z'"),
    What.RULE_LETTER_TWICE: (lambda: DealCode.parse("CF1-D3P2P3-AAAAAAA"), "'D3P2P3'"),
    What.BAD_RULE_LETTER_VALUE: (lambda: DealCode.parse("CF1-D3TQ-AAAAAAA"), "'Q'"),
    What.RULE_TAKES_A_NUMBER: (lambda: DealCode.parse("CF1-D3PX-AAAAAAA"), "'X'"),
    What.RULES_IN_CODE: (lambda: DealCode.parse("CF1-D3P100-AAAAAAA"), "'D3P100'"),
    What.NOT_CANONICAL: (lambda: DealCode.parse("CF1-D3TA-AAAAAAA"), "'D3TA'"),
    What.BAD_DEAL_LETTERS: (lambda: DealCode.parse("CF1-D3-XYZ"), "'XYZ'"),
    What.NO_SUCH_DECK: (lambda: DealCode.parse("CF1-D3-" + "Z" * 48), "'ZZZZ"),
    What.DEAL_NUMBER_RANGE: (lambda: DealCode(Rules(), number=-1), "0"),
    What.DEAL_NUMBER_LETTERS: (lambda: deal_number_of("XYZ"), "'XYZ'"),
    What.NOT_A_STORED_POSITION: (lambda: decode_position("garbage"), "'garbage'"),
}


def raised(make: Callable[[], object]) -> UnreadableError:
    try:
        make()
    except UnreadableError as error:
        return error
    raise AssertionError("no UnreadableError")


def worded(error: UnreadableError, language: str) -> str:
    with i18n.using(language):
        return wording.unreadable(error.fact)


# What a player types or picks, the same in every language: rule options and their values,
# presets, levels, JSON's literals and the move `draw`.
IDENTIFIERS = {
    "draw", "null", "true", "false", "app", "classic", "skill", "casino", "autocomplete",
    "passes", "scoring", "all", "waste", "easy", "medium", "hard", "shared",
}  # fmt: skip
# Typed values ('...'), deal codes and rules tokens, card and move notation, option names
# and values (`empty_column`, `top-or-all`).
_VALUES = re.compile(
    r"Content-Type: application/json|'[^']*'|\bCF1-\S*|\b[0-9A-Z]{1,2}-(?:f|t\d)\b"
    r"|\b[0-9A-Z]+\b|A-Z|[a-z]+(?:[_-][a-z]+)+"
)
_WORDS = re.compile(r"[^\W\d_]+")
LETTERS = {
    "pl": re.compile(r"[a-ząćęłńóśźż]+"),
    "he": re.compile(r"[\u05d0-\u05ea]+"),
    "ru": re.compile(r"[а-яё]+"),
}


def words_of(text: str) -> list[str]:
    """The words of `text` in lower case, values, notation and identifiers aside."""
    return _WORDS.findall(_VALUES.sub(" ", text).lower())


# Every word the English messages say (except identifiers and the Polish words that are
# English too: `a`, `to`, `as` the ace): none may be left in a translation.
ENGLISH = {
    word
    for make, _ in CASES.values()
    for word in words_of(worded(raised(make), "en"))
} - IDENTIFIERS - {"a", "to", "as"}


def english_left(text: str, language: str, english: set[str] = ENGLISH) -> list[str]:
    """The words of `text` (values and identifiers aside) that are `english` (by default,
    the words of the unreadable-input messages), or not in the language's alphabet."""
    return [
        word
        for word in words_of(text)
        if word in english
        or (word not in IDENTIFIERS and not LETTERS[language].fullmatch(word))
    ]


_MESSAGE = re.compile(r'<p class="error-message">(.*?)</p>|<div id="message"[^>]*><p>(.*?)</p>')


def page_message(text: str) -> str:
    """The message of an error page or of the board's message block (htmx or page)."""
    found = _MESSAGE.search(text)
    assert found, text
    return html.unescape(found.group(1) or found.group(2))
