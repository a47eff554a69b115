"""The engine's errors: each a ValueError whose message a player can read."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.engine.refusals import Refusal


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidCardError(EngineError):
    """A card name that is not two characters of rank and suit."""


class InvalidCodeError(EngineError):
    """A deal code that cannot be read."""


class InvalidDeckError(EngineError):
    """A custom deck that is not the 52 cards, each once."""


class InvalidRulesError(EngineError):
    """An unknown preset, option or option value."""


class InvalidMoveError(EngineError):
    """A move string that is not in the notation of SPEC §4."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position. `refusal` says
    why as facts (app/engine/refusals.py); the message is the engine's English of it."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal
