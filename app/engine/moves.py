"""Moves in the notation of SPEC §4: `draw`, `<card>-f`, `<card>-t<n>`."""

from __future__ import annotations

from typing import NamedTuple

from app.engine.cards import Card
from app.engine.errors import InvalidMoveError
from app.engine.unreadable import Unreadable, What

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
        move = _BY_TEXT.get(text) if isinstance(text, str) else None
        if move is None:
            raise InvalidMoveError(Unreadable(What.UNKNOWN_MOVE, text))
        return move

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

# Every move there is, made once, so that move generation allocates nothing:
# MOVES_OF[card.index][target + 1] is the move of that card to FOUNDATION (-1) or column 0..3.
MOVES_OF: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(Card.from_index(i), target) for target in range(FOUNDATION, 4)) for i in range(52)
)
_BY_TEXT: dict[str, Move] = {"draw": DRAW} | {str(m): m for row in MOVES_OF for m in row}
