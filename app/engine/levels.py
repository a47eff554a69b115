"""Levels (SPEC §10): what a new game's level fixes of its rules; the deal is chosen outside."""

from __future__ import annotations

from typing import Literal

from app.engine.errors import InvalidRulesError
from app.engine.rules import Rules
from app.engine.unreadable import Unreadable, What

Level = Literal["easy", "medium", "hard", "shared"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard", "shared")
# The levels a player picks; `shared` is the level of a game started from a code or deck.
CHOSEN_LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
DEFAULT_LEVEL: Level = "medium"
# Level hard allows at most this many passes through the stock.
HARD_PASSES = 3


def parse_level(text: object) -> Level:
    """A level from its name; raises InvalidRulesError for anything else."""
    for level in LEVELS:
        if text == level:
            return level
    raise InvalidRulesError(Unreadable(What.UNKNOWN_LEVEL, text, choices=LEVELS))


def rules_for_level(rules: Rules, level: Level) -> Rules:
    """The rules a game of `level` is played under: level hard caps the passes at three
    (fewer, if the rules already allow fewer); the others keep the rules as they are."""
    if level != "hard":
        return rules
    passes = HARD_PASSES if rules.passes is None else min(rules.passes, HARD_PASSES)
    return rules.with_options(passes=passes)
