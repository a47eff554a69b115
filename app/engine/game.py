"""A game: a position plus its history, score, moves count and undo (SPEC §5)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any, Protocol

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.errors import IllegalMoveError, InvalidMoveError
from app.engine.moves import Move
from app.engine.position import Position, apply_move, legal_moves
from app.engine.refusals import Refusal, Why
from app.engine.rules import Rules
from app.engine.scoring import SCORING_SYSTEMS, Scoring
from app.engine.summary import summary
from app.engine.tap import resolve_tap

UNDO = "undo"


class UndoHistory(Protocol):
    """A game's undo stack: the game pushes one entry per applied move and pops one per
    undo. A `deque` with the rules' `maxlen` is one (what a new game keeps); a store's
    stack that loads its older entries when popped is another (app/engine/state.py).
    An entry is the position and the points before the move."""

    def __len__(self) -> int: ...

    def append(self, entry: tuple[Position, int], /) -> None: ...

    def pop(self) -> tuple[Position, int]: ...


class Game:
    """One game of a deal. The deal code plus the action log (`record()`) is the truth:
    `Game.replay` rebuilds the identical game from it.

    `seconds` is the playing time, which the caller measures and sets; only
    `skill` scoring uses it. `actions` are the actions applied since the game was
    made (`Game(code)`, at version 0) or restored (`Game.restore`, at `base_version`).
    """

    def __init__(
        self,
        code: DealCode,
        *,
        position: Position | None = None,
        points: int | None = None,
        moves: int = 0,
        seconds: float = 0.0,
        undo: UndoHistory | None = None,
        version: int = 0,
    ) -> None:
        """A new game of the deal, from its opening position; `Game.restore` gives the
        rest to resume a game from stored state instead."""
        self.code = code
        self.position = Position.deal(code.deck) if position is None else position
        self.actions: list[str] = []
        self.base_version = version
        # A new game starts with what its deal is worth (casino: the base card's 5).
        self.points = (
            self.scoring.opening_points(sum(self.position.foundations))
            if points is None
            else points
        )
        self.moves = moves
        self.seconds = seconds
        self._undo: UndoHistory = (
            deque(maxlen=code.rules.undo_limit) if undo is None else undo
        )

    @classmethod
    def restore(
        cls,
        code: DealCode,
        *,
        position: Position,
        points: int,
        moves: int,
        seconds: float,
        undo: UndoHistory,
        version: int,
    ) -> Game:
        """A game resumed from stored state at `version` (the count of actions applied
        before), in constant time, instead of replayed from its log: `undo` holds what
        those actions left to take back, and `actions` starts empty."""
        return cls(
            code,
            position=position,
            points=points,
            moves=moves,
            seconds=seconds,
            undo=undo,
            version=version,
        )

    @property
    def rules(self) -> Rules:
        return self.code.rules

    @property
    def scoring(self) -> Scoring:
        return SCORING_SYSTEMS[self.rules.scoring]

    @property
    def won(self) -> bool:
        return self.position.won

    @property
    def score(self) -> int:
        return self.scoring.score(self.points, self.seconds, self.won)

    @property
    def undo_available(self) -> int:
        return 0 if self.won else len(self._undo)

    @property
    def version(self) -> int:
        """How many actions (moves, draws, undos) have been applied."""
        return self.base_version + len(self.actions)

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.position, self.rules)

    def summary(self, language: str = "en") -> str:
        """The position in words, in `language` (SPEC §6, §11)."""
        return summary(self.position, language)

    def play(self, move: Move | str) -> Move:
        """Apply a move; raises InvalidMoveError or IllegalMoveError and changes nothing."""
        if isinstance(move, str):
            text = move
            move = Move.parse(move)  # the notation is exact, so `text` is already canonical
        else:
            text = str(move)
        before = self.position
        after = apply_move(before, self.rules, move)
        placed = sum(after.foundations) - sum(before.foundations)
        self._undo.append((before, self.points))
        self.position = after
        self.points += self.scoring.action_points(placed)
        self.moves += 1
        self.actions.append(text)
        return move

    def undo(self) -> None:
        """Take back the last kept action; raises IllegalMoveError when there is none."""
        if self.won:
            raise IllegalMoveError(Refusal(Why.GAME_WON))
        if not self._undo:
            raise IllegalMoveError(Refusal(Why.NOTHING_TO_UNDO))
        self.position, self.points = self._undo.pop()
        self.moves += 1 if self.scoring.undo_counts_as_move else -1
        self.actions.append(UNDO)

    def tap_move(
        self, card: Card | str, *, double_click: bool = True, double: bool = False
    ) -> Move:
        """The move a tap on `card` would make; raises IllegalMoveError when it has none."""
        if isinstance(card, str):
            card = Card.parse(card)
        if self.won:
            raise IllegalMoveError(Refusal(Why.GAME_WON))
        move = resolve_tap(
            self.position, self.rules, card, double_click=double_click, double=double
        )
        if move is None:
            raise IllegalMoveError(Refusal(Why.NO_MOVE_FOR_TAP, (card,)))
        return move

    def tap(self, card: Card | str, *, double_click: bool = True, double: bool = False) -> Move:
        """Play the move a tap on `card` makes, and return it."""
        return self.play(self.tap_move(card, double_click=double_click, double=double))

    def apply_action(self, action: str) -> None:
        """Apply one logged action: a move in notation, or `undo`."""
        if action == UNDO:
            self.undo()
        else:
            self.play(action)

    def record(self) -> dict[str, Any]:
        """The compact storable form: the deal code and the action log.

        Raises ValueError for a game restored after its first action: it holds only the
        actions since (its log is the store's).
        """
        if self.base_version:
            raise ValueError(
                f"the game was restored at version {self.base_version}: "
                "its earlier actions are not in it"
            )
        return {"code": str(self.code), "actions": list(self.actions)}

    @staticmethod
    def replay(code: DealCode | str, actions: Iterable[str]) -> Game:
        """The game that `actions` make from the deal `code`; raises on a bad action."""
        game = Game(code if isinstance(code, DealCode) else DealCode.parse(code))
        for action in actions:
            game.apply_action(action)
        return game


__all__ = ["UNDO", "Game", "IllegalMoveError", "InvalidMoveError", "UndoHistory"]
