"""The one place that loads and saves players and games: each action is one transaction."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Engine, Row, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.engine import DealCode, Game, Position
from app.engine.state import RestoredGame, UndoEntry, UndoStack, decode_position, encode_position
from app.store.db import WRITE, is_sqlite
from app.store.models import PLAYING, WON, actions, games, players

ID_BYTES = 16  # 128 random bits: game and player ids cannot be guessed
# Without a version, an action that meets a concurrent one is simply tried again.
RETRIES = 5


class GameNotFound(LookupError):
    """No such game for this player (another player's game is not found either)."""


class VersionConflict(Exception):
    """The game has moved on since the version the client saw."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}")
        self.current = current


@dataclass(frozen=True, slots=True)
class Prefs:
    """A player's choices: the New game dialog's rules and the tap setting."""

    double_click: bool = True
    preset: str = "app"
    draw: int = 3


@dataclass(slots=True)
class StoredGame:
    """A game as stored: its id, the engine game, and what the store knows beside it.

    `before` is the position before the action this request applied, if any.
    """

    id: str
    code: str
    game: Game
    status: str
    created_at: datetime
    updated_at: datetime
    before: Position | None = None

    @property
    def version(self) -> int:
        return self.game.version


GameRecord = Row[*tuple[Any, ...]]
Action = Callable[[Game, Prefs], object]


def new_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


def now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything stored is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@lru_cache(maxsize=4096)
def parse_code(text: str) -> DealCode:
    """A stored deal code, parsed once per process (codes are immutable values)."""
    return DealCode.parse(text)


_GAME_COLUMNS = (
    games.c.id,
    games.c.code,
    games.c.status,
    games.c.version,
    games.c.points,
    games.c.moves,
    games.c.seconds,
    games.c.position,
    games.c.undo_count,
    games.c.undo_top,
    games.c.created_at,
    games.c.updated_at,
)
class Store:
    """Players and games in one database (SQLite or PostgreSQL).

    Writes on SQLite are serialised in this process (one writer at a time) and
    begin IMMEDIATE across processes. On PostgreSQL an action locks its game's row
    (SELECT ... FOR UPDATE), so actions on one game take turns while other games
    go on; and an update commits only if the version is still the one it read.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        idle_limit: float = 60.0,
        clock: Callable[[], datetime] = now,
    ) -> None:
        self.engine = engine
        self.idle_limit = idle_limit
        self.clock = clock
        self._write_lock = threading.Lock() if is_sqlite(engine) else None
        dialect_insert = sqlite.insert if is_sqlite(engine) else postgresql.insert
        self._insert_player = dialect_insert(players).on_conflict_do_nothing(
            index_elements=[players.c.id]
        )

    # -- transactions -------------------------------------------------------

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with self.engine.connect() as connection, connection.begin():
            yield connection

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        if self._write_lock is None:
            with self.engine.connect() as connection, connection.begin():
                yield connection
            return
        with self._write_lock, self.engine.connect() as connection:
            connection.execution_options(**{WRITE: True})
            with connection.begin():
                yield connection

    # -- players -----------------------------------------------------------------

    def prefs(self, player_id: str) -> Prefs:
        with self._reading() as connection:
            row = connection.execute(
                select(players.c.double_click, players.c.preset, players.c.draw).where(
                    players.c.id == player_id
                )
            ).one_or_none()
        return Prefs(row.double_click, row.preset, row.draw) if row else Prefs()

    def save_prefs(self, player_id: str, prefs: Prefs) -> None:
        with self._writing() as connection:
            self._ensure_player(connection, player_id)
            connection.execute(
                update(players)
                .where(players.c.id == player_id)
                .values(double_click=prefs.double_click, preset=prefs.preset, draw=prefs.draw)
            )

    def _ensure_player(self, connection: Connection, player_id: str) -> None:
        defaults = Prefs()
        connection.execute(
            self._insert_player,
            {
                "id": player_id,
                "created_at": self.clock(),
                "double_click": defaults.double_click,
                "preset": defaults.preset,
                "draw": defaults.draw,
            },
        )

    # -- games -------------------------------------------------------------------

    def create_game(self, player_id: str, code: DealCode) -> StoredGame:
        """A new game of `code` for the player (who is created if new)."""
        game = Game(code)
        moment = self.clock()
        game_id = new_id()
        with self._writing() as connection:
            self._ensure_player(connection, player_id)
            connection.execute(
                insert(games),
                {
                    "id": game_id,
                    "player_id": player_id,
                    "code": str(code),
                    "rules": code.rules.to_dict(),
                    "status": PLAYING,
                    "version": 0,
                    "score": game.score,
                    "points": 0,
                    "moves": 0,
                    "seconds": 0.0,
                    "position": encode_position(game.position),
                    "undo_count": 0,
                    "undo_top": None,
                    "created_at": moment,
                    "updated_at": moment,
                    "finished_at": None,
                },
            )
        return StoredGame(game_id, str(code), game, PLAYING, moment, moment)

    def load_game(self, player_id: str, game_id: str) -> StoredGame:
        """The player's game; raises GameNotFound."""
        with self._reading() as connection:
            row = self._select(connection, player_id, game_id)
            return self._stored(connection, row)

    def resume(self, player_id: str) -> StoredGame | None:
        """The player's most recently played unfinished game, if any."""
        query = (
            select(*_GAME_COLUMNS, players.c.double_click)
            .join(players, players.c.id == games.c.player_id)
            .where(games.c.player_id == player_id, games.c.status == PLAYING)
            .order_by(games.c.updated_at.desc())
            .limit(1)
        )
        with self._reading() as connection:
            row = connection.execute(query).one_or_none()
            return None if row is None else self._stored(connection, row)

    def act(
        self, player_id: str, game_id: str, action: Action, *, version: int | None = None
    ) -> StoredGame:
        """Apply `action` to the game and commit it with its log entry, or change nothing.

        Raises GameNotFound, VersionConflict when `version` is given and is not the
        game's, and whatever the action raises (an EngineError) after rolling back.
        """
        for _ in range(RETRIES):
            with self._writing() as connection:
                row = self._select(connection, player_id, game_id, lock=True)
                if version is not None and row.version != version:
                    raise VersionConflict(row.version)
                stored = self._stored(connection, row)
                game = stored.game
                stored.before = game.position
                action(game, Prefs(double_click=row.double_click))
                if self._save(connection, row, stored):
                    return stored
            if version is not None:
                break
        raise VersionConflict(self.load_game(player_id, game_id).version)

    def log(self, game_id: str) -> list[str]:
        """The game's actions in order, as the engine writes them."""
        with self._reading() as connection:
            return list(
                connection.execute(
                    select(actions.c.action)
                    .where(actions.c.game_id == game_id)
                    .order_by(actions.c.seq)
                ).scalars()
            )

    def replay(self, player_id: str, game_id: str) -> Game:
        """The game rebuilt from its deal code and action log alone (the truth)."""
        stored = self.load_game(player_id, game_id)
        game = Game.replay(stored.game.code, self.log(game_id))
        game.seconds = stored.game.seconds
        return game

    # -- rows <-> games ------------------------------------------------------------

    def _select(
        self, connection: Connection, player_id: str, game_id: str, *, lock: bool = False
    ) -> GameRecord:
        query = (
            select(*_GAME_COLUMNS, players.c.double_click)
            .join(players, players.c.id == games.c.player_id)
            .where(games.c.id == game_id, games.c.player_id == player_id)
        )
        if lock:
            # PostgreSQL: actions on one game queue on its row (SQLite has the write lock).
            query = query.with_for_update(of=games)
        row = connection.execute(query).one_or_none()
        if row is None:
            raise GameNotFound(game_id)
        return row

    def _stored(self, connection: Connection, row: GameRecord) -> StoredGame:
        code = parse_code(row.code)
        game_id = row.id

        def load(seq: int) -> UndoEntry:
            entry = connection.execute(
                select(actions.c.undo_position, actions.c.undo_points, actions.c.undo_below).where(
                    actions.c.game_id == game_id, actions.c.seq == seq
                )
            ).one()
            return UndoEntry(decode_position(entry[0]), entry[1], entry[2])

        undo = UndoStack(
            code.rules.undo_limit,
            version=row.version,
            top=row.undo_top,
            count=row.undo_count,
            load=load,
        )
        game = RestoredGame(
            code,
            position=decode_position(row.position),
            points=row.points,
            moves=row.moves,
            seconds=row.seconds,
            undo=undo,
        )
        return StoredGame(
            game_id, row.code, game, row.status, _utc(row.created_at), _utc(row.updated_at)
        )

    def _save(self, connection: Connection, row: GameRecord, stored: StoredGame) -> bool:
        """Write the game's new actions and state; False if another writer got there first."""
        game = stored.game
        assert isinstance(game, RestoredGame)
        moment = self.clock()
        gap = (moment - _utc(row.updated_at)).total_seconds()
        game.seconds = row.seconds + min(max(gap, 0.0), self.idle_limit)
        won = game.won
        status = WON if won else PLAYING
        result = connection.execute(
            update(games)
            .where(games.c.id == row.id, games.c.version == row.version)
            .values(
                status=status,
                version=game.version,
                score=game.score,
                points=game.points,
                moves=game.moves,
                seconds=game.seconds,
                position=encode_position(game.position),
                undo_count=game.undo_stack.count,
                undo_top=game.undo_stack.top,
                updated_at=moment,
                finished_at=moment if won else None,
            )
        )
        if result.rowcount != 1:
            return False
        pushed = game.undo_stack.pushed
        entries = []
        for seq, action in enumerate(game.actions, start=game.base_version + 1):
            entry = pushed.get(seq)
            entries.append(
                {
                    "game_id": row.id,
                    "seq": seq,
                    "action": action,
                    "at": moment,
                    "undo_position": encode_position(entry.position) if entry else None,
                    "undo_points": entry.points if entry else None,
                    "undo_below": entry.below if entry else None,
                }
            )
        if entries:
            connection.execute(insert(actions), entries)
        stored.status = status
        stored.updated_at = moment
        return True
