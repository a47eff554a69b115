"""The rule options of SPEC §3 as one immutable object, the presets, and their code token."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from app.engine.errors import InvalidCodeError, InvalidRulesError
from app.engine.unreadable import Unreadable, What

TableauMoves = Literal["any-run", "top-or-all", "all"]
EmptyColumn = Literal["any", "waste"]
Scoring = Literal["app", "skill", "casino"]

TABLEAU_MOVES: tuple[TableauMoves, ...] = ("any-run", "top-or-all", "all")
EMPTY_COLUMN: tuple[EmptyColumn, ...] = ("any", "waste")
SCORING: tuple[Scoring, ...] = ("app", "skill", "casino")
PRESET_NAMES = ("app", "classic", "skill")


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of SPEC §3. Build one with `Rules.preset(...)`; it validates."""

    preset: str = "app"
    draw: int = 3
    passes: int | None = None
    tableau_moves: TableauMoves = "any-run"
    empty_column: EmptyColumn = "any"
    foundation_to_tableau: bool = True
    undo_limit: int | None = 100
    scoring: Scoring = "app"
    autocomplete: bool = False

    def __post_init__(self) -> None:
        _validate(self)

    @staticmethod
    def preset_named(name: str, **overrides: Any) -> Rules:
        """The preset `name` (`app`, `classic`, `skill`) with `overrides` applied.

        Raises InvalidRulesError for an unknown preset, option or value.
        """
        base = PRESETS.get(name) if isinstance(name, str) else None
        if base is None:
            raise InvalidRulesError(Unreadable(What.UNKNOWN_PRESET, name, choices=PRESET_NAMES))
        return base.with_options(**overrides)

    def with_options(self, **overrides: Any) -> Rules:
        """These rules with some options changed; `preset` stays. Raises InvalidRulesError."""
        known = {f.name for f in fields(Rules)} - {"preset"}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise InvalidRulesError(
                Unreadable(What.UNKNOWN_OPTION, unknown[0], choices=tuple(sorted(known)))
            )
        return replace(self, **overrides)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        """Rules from a JSON object: `preset` (default `app`) plus any options."""
        if not isinstance(data, dict):
            raise InvalidRulesError(Unreadable(What.RULES_NOT_AN_OBJECT))
        options = dict(data)
        return Rules.preset_named(options.pop("preset", "app"), **options)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def token(self) -> str:
        """The rules part of a deal code (see `encode_token`)."""
        return encode_token(self)


def _validate(rules: Rules) -> None:
    def fail(
        option: str, what: What, choices: tuple[str, ...] = (), low: int = 0, high: int = 0
    ) -> None:
        value = getattr(rules, option)
        raise InvalidRulesError(Unreadable(what, value, option, choices, low, high))

    def is_int(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def is_bool(value: object) -> bool:
        return isinstance(value, bool)

    if rules.preset not in PRESET_NAMES:
        fail("preset", What.BAD_CHOICE, PRESET_NAMES)
    if not is_int(rules.draw) or rules.draw not in (1, 3):
        fail("draw", What.BAD_CHOICE, ("1", "3"))
    if rules.passes is not None and (not is_int(rules.passes) or not 1 <= rules.passes <= 99):
        fail("passes", What.BAD_COUNT, low=1, high=99)
    if rules.tableau_moves not in TABLEAU_MOVES:
        fail("tableau_moves", What.BAD_CHOICE, TABLEAU_MOVES)
    if rules.empty_column not in EMPTY_COLUMN:
        fail("empty_column", What.BAD_CHOICE, EMPTY_COLUMN)
    if not is_bool(rules.foundation_to_tableau):
        fail("foundation_to_tableau", What.BAD_SWITCH)
    if rules.undo_limit is not None and (
        not is_int(rules.undo_limit) or not 0 <= rules.undo_limit <= 9999
    ):
        fail("undo_limit", What.BAD_COUNT, low=0, high=9999)
    if rules.scoring not in SCORING:
        fail("scoring", What.BAD_CHOICE, SCORING)
    if not is_bool(rules.autocomplete):
        fail("autocomplete", What.BAD_SWITCH)


PRESETS: dict[str, Rules] = {
    "app": Rules(),
    "classic": Rules(
        preset="classic",
        tableau_moves="all",
        empty_column="waste",
        foundation_to_tableau=False,
        undo_limit=None,
        scoring="casino",
    ),
    "skill": Rules(
        preset="skill",
        tableau_moves="top-or-all",
        empty_column="waste",
        foundation_to_tableau=False,
        undo_limit=None,
        scoring="skill",
        autocomplete=True,
    ),
}

# The rules token of a deal code: a preset letter and the draw count, then one
# letter and value for each option that differs from that preset, in this order.
#   D = app (so `D3`/`D1` are exactly the seeds' codes), C = classic, S = skill
#   P<n> passes (P0 = unlimited)      T<A|O|W> tableau_moves any-run/top-or-all/all
#   E<A|W> empty_column any/waste     F<0|1> foundation_to_tableau
#   U<n> undo_limit (UX = unlimited)  G<A|S|C> scoring app/skill/casino
#   A<0|1> autocomplete
# Examples: `S3P3` is skill draw 3 with three passes (level Hard), `C1` classic
# draw 1, `D3TWF0` the app preset with whole-column moves and no foundation
# take-backs. Input is case-insensitive; output is canonical, so equal rules
# always give the same token.
PRESET_LETTERS = {"app": "D", "classic": "C", "skill": "S"}
_PRESET_BY_LETTER = {letter: name for name, letter in PRESET_LETTERS.items()}
_TABLEAU_LETTERS = {"any-run": "A", "top-or-all": "O", "all": "W"}
_EMPTY_LETTERS = {"any": "A", "waste": "W"}
_SCORING_LETTERS = {"app": "A", "skill": "S", "casino": "C"}
_TOKEN = re.compile(r"([DCS])([13])((?:[A-Z](?:\d+|[A-Z]))*)\Z")
_OPTION = re.compile(r"([A-Z])(\d+|[A-Z])")


def _nullable(value: int | None, none_letter: str) -> str:
    return none_letter if value is None else str(value)


def _option_codes(rules: Rules) -> list[tuple[str, str]]:
    return [
        ("P", _nullable(rules.passes, "0")),
        ("T", _TABLEAU_LETTERS[rules.tableau_moves]),
        ("E", _EMPTY_LETTERS[rules.empty_column]),
        ("F", str(int(rules.foundation_to_tableau))),
        ("U", _nullable(rules.undo_limit, "X")),
        ("G", _SCORING_LETTERS[rules.scoring]),
        ("A", str(int(rules.autocomplete))),
    ]


def encode_token(rules: Rules) -> str:
    """The canonical rules token of a deal code, e.g. `D3`, `S3P3`."""
    base = PRESETS[rules.preset].with_options(draw=rules.draw)
    extra = "".join(
        letter + value
        for (letter, value), (_, default) in zip(
            _option_codes(rules), _option_codes(base), strict=True
        )
        if value != default
    )
    return f"{PRESET_LETTERS[rules.preset]}{rules.draw}{extra}"


def _invert(table: dict[str, str]) -> dict[str, str]:
    return {letter: value for value, letter in table.items()}


def _count(text: str, letter: str, none_value: str) -> int | None:
    if text == none_value:
        return None
    if not text.isdigit():
        raise InvalidCodeError(Unreadable(What.RULE_TAKES_A_NUMBER, text, letter))
    return int(text)


_DECODERS: dict[str, tuple[str, Any]] = {
    "P": ("passes", lambda v: _count(v, "P", "0")),
    "T": ("tableau_moves", _invert(_TABLEAU_LETTERS).get),
    "E": ("empty_column", _invert(_EMPTY_LETTERS).get),
    "F": ("foundation_to_tableau", {"0": False, "1": True}.get),
    "U": ("undo_limit", lambda v: _count(v, "U", "X")),
    "G": ("scoring", _invert(_SCORING_LETTERS).get),
    "A": ("autocomplete", {"0": False, "1": True}.get),
}


def decode_token(token: str) -> Rules:
    """Rules from a deal code's rules token; raises InvalidCodeError."""
    text = token.upper()
    match = _TOKEN.match(text) if token.isascii() else None
    if match is None:
        raise InvalidCodeError(Unreadable(What.UNKNOWN_RULES, token))
    overrides: dict[str, Any] = {}
    for letter, value in _OPTION.findall(match.group(3)):
        if letter not in _DECODERS:
            raise InvalidCodeError(Unreadable(What.UNKNOWN_RULE_LETTER, token, letter))
        option, decode = _DECODERS[letter]
        if option in overrides:
            raise InvalidCodeError(Unreadable(What.RULE_LETTER_TWICE, token, letter))
        decoded = decode(value)
        if decoded is None and letter not in ("P", "U"):
            raise InvalidCodeError(Unreadable(What.BAD_RULE_LETTER_VALUE, value, letter))
        overrides[option] = decoded
    try:
        rules = Rules.preset_named(
            _PRESET_BY_LETTER[match.group(1)], draw=int(match.group(2)), **overrides
        )
    except InvalidRulesError as error:
        raise InvalidCodeError(Unreadable(What.RULES_IN_CODE, token, cause=error.fact)) from None
    if rules.token != text:
        raise InvalidCodeError(Unreadable(What.NOT_CANONICAL, token, rules.token))
    return rules
