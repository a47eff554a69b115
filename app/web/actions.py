"""The player's actions on a game, written once for the JSON API and the page routes: play
(drawing too: it is the move `draw`, DRAW), undo, tap and hint, each one transaction of
the store.

Each takes the store and the player id (the routes' dependencies) and returns what the
route answers with: the stored game as committed, and what changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.exceptions import HTTPException

from app.engine import Card, Game, Move, Position
from app.i18n import wording
from app.store import GameOver, Prefs, Store, StoredGame, VersionConflict
from app.store.aio import AsyncStore
from app.store.games import Action
from app.web import messages
from app.web.computer import ComputerBusy, ComputerPlayer, HintAnswer, SearchRefused
from app.web.limits import search_refused
from app.web.views import changed_blocks


@dataclass(frozen=True, slots=True)
class Done:
    """An action as committed: the game after it, and (`before`, `changed`) what it changed."""

    stored: StoredGame

    @property
    def before(self) -> Position:
        """The position the action started from."""
        before = self.stored.before
        return before if before is not None else self.stored.game.position

    def changed(self) -> list[str]:
        """The page blocks the action changed (views.changed_blocks)."""
        return changed_blocks(self.before, self.stored.game.position)


async def _act(
    store: AsyncStore, player_id: str, game_id: str, action: Action, version: int | None
) -> StoredGame:
    """Apply and commit one action; raises GameNotFound, VersionConflict, EngineError."""
    return await store.act(player_id, game_id, action, version=version)


async def play(
    store: AsyncStore, player_id: str, game_id: str, move: Move, version: int | None
) -> Done:
    """Play a move (DRAW draws, or turns the waste over); raises GameNotFound,
    VersionConflict, and IllegalMoveError with the reason when the rules refuse it."""

    def apply(game: Game, prefs: Prefs) -> Move:
        return game.play(move)

    return Done(await _act(store, player_id, game_id, apply, version))


async def undo(store: AsyncStore, player_id: str, game_id: str, version: int | None) -> Done:
    """Take back the last kept action; raises as `play` (IllegalMoveError: nothing to undo)."""

    def take_back(game: Game, prefs: Prefs) -> None:
        game.undo()

    return Done(await _act(store, player_id, game_id, take_back, version))


async def tap(
    store: AsyncStore,
    player_id: str,
    game_id: str,
    card: Card,
    *,
    double_click: bool | None,
    double: bool,
    version: int | None,
) -> Done:
    """Play the move a tap on `card` makes (SPEC §4); `double_click` None follows the
    player's setting. Raises as `play` (IllegalMoveError when the card has no move)."""

    def apply(game: Game, prefs: Prefs) -> Move:
        to_column = prefs.double_click if double_click is None else double_click
        return game.tap(card, double_click=to_column, double=double)

    return Done(await _act(store, player_id, game_id, apply, version))


@dataclass(frozen=True, slots=True)
class GivenHint:
    """A hint as given: the solver's answer, its words, and the game with the count."""

    answer: HintAnswer
    text: str
    stored: StoredGame


def hint_text(answer: HintAnswer, game: Game) -> str:
    """The hint in words, in the player's language: the move spelt out, or why none."""
    if answer.move is None:
        return wording.no_hint(answer.why, answer.undo, game.undo_available)
    return wording.hint_move(Move.parse(answer.move), bool(game.position.stock))


async def hint(
    store: AsyncStore,
    computer: ComputerPlayer,
    player_id: str,
    game_id: str,
    version: int | None,
) -> GivenHint:
    """Ask the computer player about the stored game, then count the hint.

    Raises GameNotFound; VersionConflict when `version` is not current, or the game
    moved while the solver thought (its hint would be for a position that is gone);
    HTTPException 422 for a won game, 429 while the player's previous search is not over,
    503 when the solver is busy; GameOver for a lost game.
    """
    stored, log = await store.run(Store.game_and_log, player_id, game_id)
    if version is not None and version != stored.version:
        raise VersionConflict(stored.version)
    if stored.game.won:
        raise HTTPException(422, wording.no_hint("won", None, 0))
    if stored.result != "playing":
        raise GameOver(stored.result)
    try:
        answer = await computer.hint(player_id, stored.code, log)
    except ComputerBusy as error:
        raise HTTPException(503, messages.computer_busy()) from error
    except SearchRefused as error:
        raise await search_refused() from error
    counted = await store.run(Store.record_hint, player_id, game_id, version=stored.version)
    return GivenHint(answer, hint_text(answer, stored.game), counted)
