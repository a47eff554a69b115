"""The engine's errors: each a ValueError whose message a player can read, carrying its
facts (a refusal, or what could not be read) for the web layer to word."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.engine.refusals import Refusal
    from app.engine.unreadable import Unreadable


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class UnreadableError(EngineError):
    """Input that cannot be read. `fact` says what was wrong (app/engine/unreadable.py);
    the message is the engine's English of it."""

    def __init__(self, fact: Unreadable) -> None:
        super().__init__(str(fact))
        self.fact = fact


class InvalidCardError(UnreadableError):
    """A card name that is not two characters of rank and suit."""


class InvalidCodeError(UnreadableError):
    """A deal code (or a stored position) that cannot be read."""


class InvalidDeckError(UnreadableError):
    """A custom deck that is not the 52 cards, each once."""


class InvalidRulesError(UnreadableError):
    """An unknown preset, option, option value or level."""


class InvalidMoveError(UnreadableError):
    """A move string that is not in the notation of SPEC §4."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position. `refusal` says
    why as facts (app/engine/refusals.py); the message is the engine's English of it."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal
