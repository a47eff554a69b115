"""Moves in the notation of SPEC §4: `draw`, `<card>-f`, `<card>-t<n>`."""

from __future__ import annotations

from typing import NamedTuple

from app.engine.cards import Card
from app.engine.errors import InvalidMoveError

FOUNDATION = -1


class Move(NamedTuple):
    """A move: `card` None is a draw; `target` is FOUNDATION or a column index 0..3.

    `str()` is the notation; `Move.parse` reads it back.
    """

    card: Card | None
    target: int = FOUNDATION

    @staticmethod
    def parse(text: str) -> Move:
        """Read `draw`, `8H-f` or `KH-t4` (case-sensitive); raises InvalidMoveError."""
        if text == "draw":
            return DRAW
        if isinstance(text, str) and len(text) in (4, 5) and text[2] == "-":
            card = Card.lookup(text[:2])
            if card is not None:
                if text[3:] == "f":
                    return Move(card, FOUNDATION)
                if len(text) == 5 and text[3] == "t" and text[4] in "1234":
                    return Move(card, int(text[4]) - 1)
        raise InvalidMoveError(
            f"unknown move {text!r}: expected draw, a card to its foundation such as 8H-f, "
            "or a card to a column such as KH-t4"
        )

    @property
    def is_draw(self) -> bool:
        return self.card is None

    def __str__(self) -> str:
        if self.card is None:
            return "draw"
        if self.target == FOUNDATION:
            return f"{self.card}-f"
        return f"{self.card}-t{self.target + 1}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


DRAW = Move(None, FOUNDATION)
