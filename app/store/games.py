"""The one place that loads and saves players and games: each action is one transaction."""

from __future__ import annotations

import fcntl
import re
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import Engine, bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import ClauseElement

from app.engine import (
    DEFAULT_LEVEL,
    SCORING_SYSTEMS,
    DealCode,
    EngineError,
    Game,
    Level,
    Position,
    Rules,
)
from app.engine.state import UndoEntry, UndoStack, decode_position, encode_position
from app.stats import Bankroll, Finished, Mode, ModeStats
from app.store.db import is_sqlite
from app.store.models import DROPPED, LOST, PLAYING, WON, actions, games, player_stats, players
from app.store.sql import Prepared, Transaction, on_connection, transaction

ID_BYTES = 16  # 128 random bits: game and player ids cannot be guessed
# What an id looks like (token_urlsafe); anything else names no game and never
# reaches the database (PostgreSQL refuses text with a NUL byte, for one).
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
# Resuming looks at this many of a player's newest unfinished games.
RESUME_CANDIDATES = 50
# Without a version, an action that meets a concurrent one is simply tried again.
RETRIES = 5


class StoreError(Exception):
    """What the store refuses: the base of its errors."""


class GameNotFound(StoreError, LookupError):
    """No such game for this player (another player's game is not found either)."""


class VersionConflict(StoreError):
    """The game has moved on since the version the client saw."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}")
        self.current = current


class GameOver(StoreError):
    """The game is finished (`result` won or lost) and takes no more actions."""

    def __init__(self, result: str) -> None:
        super().__init__(f"the game is {result}")
        self.result = result


@dataclass(frozen=True, slots=True)
class Prefs:
    """A player's choices: the start window's rules and level, the tap setting, the page's
    "Still winnable?" toggle, the menu's sound and the language switch. (`winnable_only`
    is the level easy of before levels; `level` replaces it.)"""

    double_click: bool = True
    preset: str = "app"
    draw: int = 3
    winnable_only: bool = False
    still_winnable: bool = False
    level: str = DEFAULT_LEVEL  # the start window's level (SPEC §10)
    sound: bool = False  # the menu's Sound on/off
    lang: str | None = None  # the language switch's choice (SPEC §11); None: not chosen


@dataclass(slots=True)
class StoredGame:
    """A game as stored: its id, the engine game, and what the store knows beside it.

    `before` is the position before the action this request applied, if any;
    `hints_used` counts the hints the player asked for in this game; `undo` is the
    game's undo stack as the store restored it (None for a new game).
    """

    id: str
    code: str
    game: Game
    status: str
    created_at: datetime
    updated_at: datetime
    before: Position | None = None
    hints_used: int = 0
    undo: UndoStack | None = None
    level: str = DEFAULT_LEVEL
    paused: bool = False

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def result(self) -> str:
        """`playing`, `won` or `lost` (SPEC §10)."""
        return PLAYING if self.status == DROPPED else self.status

    def finished(self) -> Finished:
        """The game as its mode's statistics count it, once it is won or lost."""
        game = self.game
        return finished(
            game.rules,
            self.level,
            won=self.status == WON,
            score=game.score,
            seconds=game.seconds,
            moves=game.moves,
        )


def finished(
    rules: Rules, level: str, *, won: bool, score: int, seconds: float, moves: int
) -> Finished:
    """A game of `rules` at `level`, finished, as its mode's statistics count it."""
    return Finished(
        preset=rules.preset,
        level=level,
        draw=rules.draw,
        won=won,
        score=score,
        seconds=int(seconds),
        moves=moves,
        casino=SCORING_SYSTEMS[rules.scoring].stakes,
    )


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


class PositionTexts:
    """Positions and their stored text (`encode_position`), as this process has met them.

    Decoding a game row's position is a pure function of its text, so the answer can
    be kept; and the text a save writes is kept with its position, so the game's next
    action skips decoding it. Nothing here is game state: the text is always the one
    just read from the database. At most `size` are kept (the oldest go first).
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._positions: dict[str, Position] = {}
        self._lock = threading.Lock()  # the store's worker threads (PostgreSQL) share it

    def decode(self, text: str) -> Position:
        """Raises InvalidCodeError for text that is not a stored position."""
        position = self._positions.get(text)
        if position is None:
            position = decode_position(text)
            self._keep(text, position)
        return position

    def encode(self, position: Position) -> str:
        text = encode_position(position)
        self._keep(text, position)
        return text

    def _keep(self, text: str, position: Position) -> None:
        positions = self._positions
        with self._lock:
            positions[text] = position
            if len(positions) > self.size:
                del positions[next(iter(positions))]


class GameRecord(NamedTuple):
    """A game's row as the store reads it, with its player's double click setting."""

    id: str
    code: str
    status: str
    version: int
    points: int
    moves: int
    seconds: float
    position: str
    undo_count: int
    undo_top: int | None
    created_at: datetime
    updated_at: datetime
    hints_used: int
    level: str
    paused: bool
    double_click: bool


def undo_entry(position: str, points: int, below: int | None) -> UndoEntry:
    """An undo entry from its log row's columns (undo_position, undo_points, undo_below)."""
    return UndoEntry(decode_position(position), points, below)


@dataclass(slots=True)
class Saving:
    """What saving a game after an action writes (`Store.saving`): the save statement's
    values (`new_<column>`, `game_id`, `read_version`), the new log entries' rows, the
    game's status after it, and the moment of the save."""

    values: dict[str, Any]
    entries: list[dict[str, Any]]
    status: str
    moment: datetime

    def done(self, stored: StoredGame) -> None:
        """The save is committed: the stored game says so."""
        stored.status = self.status
        stored.updated_at = self.moment
        stored.paused = False


_GAME_COLUMNS = [getattr(games.c, name) for name in GameRecord._fields[:-1]]
_GAME = (
    select(*_GAME_COLUMNS, players.c.double_click)
    .join(players, players.c.id == games.c.player_id)
    .where(games.c.id == bindparam("game_id"), games.c.player_id == bindparam("player_id"))
)
SAVED_COLUMNS = (
    "version",
    "score",
    "points",
    "moves",
    "seconds",
    "position",
    "undo_count",
    "undo_top",
    "updated_at",
    "paused",
)
# Written only when they change (a win): `status` is indexed, and setting it, even to the
# same value, rewrites its index entry (on SQLite a page more in every commit).
_STATUS_COLUMNS = ("status", "finished_at")
_PREFS = tuple(field.name for field in fields(Prefs))  # the players columns of a Prefs


@dataclass(frozen=True, slots=True)
class Statements:
    """Every statement the store runs, built once with bound parameters and compiled for
    one database (`Statements.compile`)."""

    game: Prepared
    # PostgreSQL: actions on one game queue on its row (SQLite has its write lock).
    game_for_update: Prepared
    latest_playing: Prepared
    undo_entry: Prepared
    log: Prepared
    save: Prepared
    save_with_status: Prepared
    insert_player: Prepared
    insert_game: Prepared
    insert_actions: Prepared
    prefs: Prepared
    save_prefs: Prepared
    count_hint: Prepared
    played_codes: Prepared
    playing_games: Prepared
    finish: Prepared
    lock_player: Prepared
    mode_stats: Prepared
    put_mode_stats: Prepared
    add_to_bankroll: Prepared
    all_stats: Prepared
    bankroll: Prepared
    clock: Prepared

    @classmethod
    def compile(cls, engine: Engine) -> Statements:
        dialect = engine.dialect
        dialect_insert = sqlite.insert if is_sqlite(engine) else postgresql.insert

        def prepared(statement: ClauseElement) -> Prepared:
            return Prepared(statement, dialect)

        return cls(
            game=prepared(_GAME),
            game_for_update=prepared(_GAME.with_for_update(of=games)),
            # The last played of the player's newest unfinished games: a bounded read however
            # many games they have (the index holds them by creation; updated_at is not in it).
            latest_playing=prepared(
                select(*_GAME_COLUMNS, players.c.double_click)
                .join(players, players.c.id == games.c.player_id)
                .where(
                    games.c.id.in_(
                        select(games.c.id)
                        .where(
                            games.c.player_id == bindparam("player_id"),
                            games.c.status == PLAYING,
                        )
                        .order_by(games.c.created_at.desc())
                        .limit(RESUME_CANDIDATES)
                    )
                )
                .order_by(games.c.updated_at.desc())
                .limit(1)
            ),
            undo_entry=prepared(
                select(actions.c.undo_position, actions.c.undo_points, actions.c.undo_below)
                .where(actions.c.game_id == bindparam("game_id"), actions.c.seq == bindparam("seq"))
            ),
            log=prepared(
                select(actions.c.action)
                .where(actions.c.game_id == bindparam("game_id"))
                .order_by(actions.c.seq)
            ),
            save=prepared(_save(SAVED_COLUMNS)),
            save_with_status=prepared(_save(SAVED_COLUMNS + _STATUS_COLUMNS)),
            insert_player=prepared(
                dialect_insert(players).on_conflict_do_nothing(index_elements=[players.c.id])
            ),
            insert_game=prepared(insert(games)),
            insert_actions=prepared(insert(actions)),
            prefs=prepared(
                select(*(getattr(players.c, name) for name in _PREFS)).where(
                    players.c.id == bindparam("player_id")
                )
            ),
            save_prefs=prepared(
                update(players)
                .where(players.c.id == bindparam("player_id"))
                .values({name: bindparam(f"new_{name}") for name in _PREFS})
            ),
            count_hint=prepared(
                update(games)
                .where(games.c.id == bindparam("game_id"))
                .values(hints_used=games.c.hints_used + 1)
            ),
            played_codes=prepared(
                select(games.c.code).where(games.c.player_id == bindparam("player_id"))
            ),
            # Starting a game ends the player's others (ix_games_player_status_created).
            playing_games=prepared(_PLAYING.with_for_update(of=games)),
            finish=prepared(
                update(games)
                .where(games.c.id == bindparam("game_id"))
                .values(status=bindparam("new_status"), finished_at=bindparam("moment"))
            ),
            # A player's finishing games take turns on their player row (their statistics).
            lock_player=prepared(
                select(players.c.id)
                .where(players.c.id == bindparam("player_id"))
                .with_for_update()
            ),
            mode_stats=prepared(
                select(*(player_stats.c[name] for name in STATS_COLUMNS)).where(
                    *(player_stats.c[name] == bindparam(name) for name in MODE_COLUMNS)
                )
            ),
            put_mode_stats=prepared(
                dialect_insert(player_stats).on_conflict_do_update(
                    index_elements=[player_stats.c[name] for name in MODE_COLUMNS],
                    set_={name: bindparam(f"new_{name}") for name in STATS_COLUMNS},
                )
            ),
            add_to_bankroll=prepared(
                update(players)
                .where(players.c.id == bindparam("player_id"))
                .values(
                    casino_games=players.c.casino_games + 1,
                    bankroll=players.c.bankroll + bindparam("score"),
                )
            ),
            all_stats=prepared(
                select(*(player_stats.c[name] for name in MODE_COLUMNS + STATS_COLUMNS)).where(
                    player_stats.c.player_id == bindparam("player_id")
                )
            ),
            bankroll=prepared(
                select(players.c.casino_games, players.c.bankroll).where(
                    players.c.id == bindparam("player_id")
                )
            ),
            clock=prepared(
                update(games)
                .where(games.c.id == bindparam("game_id"))
                .values(
                    seconds=bindparam("new_seconds"),
                    paused=bindparam("new_paused"),
                    updated_at=bindparam("new_updated_at"),
                )
            ),
        )


_PLAYING = select(
    games.c.id, games.c.code, games.c.version, games.c.level, games.c.score,
    games.c.seconds, games.c.moves,
).where(games.c.player_id == bindparam("player_id"), games.c.status == PLAYING)
MODE_COLUMNS = ("player_id", "preset", "level", "draw")
STATS_COLUMNS = (
    "played",
    "won",
    "streak",
    "best_streak",
    "best_score",
    "best_seconds",
    "fewest_moves",
    "recent",
)


def _figures(values: Sequence[Any]) -> ModeStats:
    """A mode's figures from the values of STATS_COLUMNS, in order."""
    return ModeStats.from_columns(dict(zip(STATS_COLUMNS, values, strict=True)))


def _save(columns: tuple[str, ...]) -> ClauseElement:
    """The update that saves a game's `columns`, if it is still at the version read."""
    return (
        update(games)
        .where(games.c.id == bindparam("game_id"), games.c.version == bindparam("read_version"))
        .values({column: bindparam(f"new_{column}") for column in columns})
    )


class WriteLock:
    """SQLite's single writer, taken in turn by threads and by processes.

    Threads queue on a lock; processes (several server workers on one database
    file) queue on an exclusive flock of `<database>.lock`, which wakes the next
    writer as soon as it is released, where SQLite's own busy handler would poll
    and sleep for milliseconds.
    """

    def __init__(self, engine: Engine) -> None:
        self._thread_lock = threading.Lock()
        database = engine.url.database
        self._file: Any = None
        if database and database != ":memory:":
            self._file = open(f"{database}.lock", "a")  # noqa: SIM115  # held for the store's life

    def __enter__(self) -> None:
        self._thread_lock.acquire()
        if self._file is not None:
            try:
                fcntl.flock(self._file, fcntl.LOCK_EX)
            except BaseException:
                self._thread_lock.release()
                raise

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
        self._thread_lock.release()


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
        self._write_lock = WriteLock(engine) if is_sqlite(engine) else None
        self._positions = PositionTexts()
        # SQLite's one writer keeps its connection (under the lock) instead of taking
        # one from the pool for every action.
        self._writer: Any = None
        self._sql = Statements.compile(engine)

    # -- transactions -------------------------------------------------------

    @contextmanager
    def _reading(self) -> Iterator[Transaction]:
        with transaction(self.engine) as tx:
            yield tx

    @contextmanager
    def _writing(self) -> Iterator[Transaction]:
        if self._write_lock is None:
            with transaction(self.engine, write=True) as tx:
                yield tx
            return
        with self._write_lock:
            if self._writer is None:
                self._writer = self.engine.raw_connection()
            try:
                with on_connection(self._writer, begin="BEGIN IMMEDIATE") as tx:
                    yield tx
            except (EngineError, StoreError):
                raise
            except BaseException:
                # Anything else may have left the connection unusable: take a new one.
                self.close()
                raise

    def writing(self) -> AbstractContextManager[Transaction]:
        """A write transaction (on SQLite under the one writer's lock), for the store's
        neighbours: app/store/limits.py and app/store/prune.py."""
        return self._writing()

    def reading(self) -> AbstractContextManager[Transaction]:
        return self._reading()

    def close(self) -> None:
        """Give back the writer's connection (the pool's are closed by engine.dispose())."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            writer.close()

    # -- players -----------------------------------------------------------------

    def prefs(self, player_id: str) -> Prefs:
        with self._reading() as tx:
            row = tx.one_or_none(self._sql.prefs, {"player_id": player_id})
        return Prefs(*row) if row else Prefs()

    def save_prefs(self, player_id: str, prefs: Prefs) -> None:
        with self._writing() as tx:
            self._ensure_player(tx, player_id)
            values = {f"new_{name}": getattr(prefs, name) for name in _PREFS}
            tx.write(self._sql.save_prefs, {"player_id": player_id, **values})

    def _ensure_player(self, tx: Transaction, player_id: str) -> None:
        defaults = Prefs()
        tx.write(
            self._sql.insert_player,
            {
                "id": player_id,
                "created_at": self.clock(),
                **{name: getattr(defaults, name) for name in _PREFS},
                "casino_games": 0,
                "bankroll": 0,
            },
        )

    # -- games -------------------------------------------------------------------

    def create_game(
        self, player_id: str, code: DealCode, level: Level = DEFAULT_LEVEL
    ) -> StoredGame:
        """A new game of `code` at `level` for the player (who is created if new).

        In the same transaction the player's games in progress end (SPEC §10): one with
        an action is lost (abandoned); one without is dropped, left out of the statistics
        (it can still be played, and then it is the game in progress again).
        """
        game = Game(code)
        moment = self.clock()
        game_id = new_id()
        with self._writing() as tx:
            self._ensure_player(tx, player_id)
            self._abandon(tx, player_id, moment)
            tx.write(
                self._sql.insert_game,
                {
                    "id": game_id,
                    "player_id": player_id,
                    "code": str(code),
                    "rules": code.rules.to_dict(),
                    "status": PLAYING,
                    "version": 0,
                    "score": game.score,
                    "points": game.points,
                    "moves": 0,
                    "seconds": 0.0,
                    "position": self._positions.encode(game.position),
                    "undo_count": 0,
                    "undo_top": None,
                    "created_at": moment,
                    "updated_at": moment,
                    "finished_at": None,
                    "hints_used": 0,
                    "level": level,
                    "paused": False,
                },
            )
        return StoredGame(game_id, str(code), game, PLAYING, moment, moment, level=level)

    def _abandon(self, tx: Transaction, player_id: str, moment: datetime) -> None:
        """End the player's games in progress: lost if they have an action, else dropped.
        There is at most one with an action, and a dropped game leaves the `playing` rows,
        so this reads a row or two whatever the player's history."""
        for game_id, code, version, level, score, seconds, moves in tx.all(
            self._sql.playing_games, {"player_id": player_id}
        ):
            if version == 0:
                dropped = {"game_id": game_id, "new_status": DROPPED, "moment": None}
                tx.write(self._sql.finish, dropped)
                continue
            tx.write(
                self._sql.finish, {"game_id": game_id, "new_status": LOST, "moment": moment}
            )
            rules = parse_code(code).rules
            lost = finished(rules, level, won=False, score=score, seconds=seconds, moves=moves)
            self._count(tx, player_id, lost)

    def _count(self, tx: Transaction, player_id: str, game: Finished) -> None:
        """Fold a finished game into the player's statistics and bankroll."""
        tx.one_or_none(self._sql.lock_player, {"player_id": player_id})
        mode = dict(zip(MODE_COLUMNS, (player_id, *game.mode), strict=True))
        row = tx.one_or_none(self._sql.mode_stats, mode)
        before = ModeStats() if row is None else _figures(row)
        columns = before.after(game).columns()
        tx.write(
            self._sql.put_mode_stats,
            {**mode, **columns, **{f"new_{name}": value for name, value in columns.items()}},
        )
        if game.casino:
            tx.write(self._sql.add_to_bankroll, {"player_id": player_id, "score": game.score})

    def stats(self, player_id: str) -> tuple[dict[Mode, ModeStats], Bankroll]:
        """The player's statistics per mode and their bankroll (a row per mode played)."""
        with self._reading() as tx:
            rows = tx.all(self._sql.all_stats, {"player_id": player_id})
            bank = tx.one_or_none(self._sql.bankroll, {"player_id": player_id})
        modes = {
            (preset, level, draw): _figures(rest) for _, preset, level, draw, *rest in rows
        }
        return modes, Bankroll(*bank) if bank else Bankroll()

    def pause(self, player_id: str, game_id: str, *, version: int | None = None) -> StoredGame:
        """Stop the game's clock (SPEC §10): the time until now is counted, none after it
        until the next action or `resume`. Not an action: the version stays. Raises
        GameNotFound, GameOver, VersionConflict."""
        return self._set_clock(player_id, game_id, version, paused=True)

    def resume_clock(
        self, player_id: str, game_id: str, *, version: int | None = None
    ) -> StoredGame:
        """Start a paused game's clock again from now. Raises as `pause`."""
        return self._set_clock(player_id, game_id, version, paused=False)

    def _set_clock(
        self, player_id: str, game_id: str, version: int | None, *, paused: bool
    ) -> StoredGame:
        with self._writing() as tx:
            row = self._select(tx, player_id, game_id, lock=True)
            if row.status != PLAYING:
                raise GameOver(row.status)
            if version is not None and row.version != version:
                raise VersionConflict(row.version)
            stored = self._stored(tx, row)
            if row.paused == paused:
                return stored
            moment = self.clock()
            seconds = row.seconds if row.paused else self._played(row, moment)
            tx.write(
                self._sql.clock,
                {
                    "game_id": game_id,
                    "new_seconds": seconds,
                    "new_paused": paused,
                    "new_updated_at": moment,
                },
            )
        stored.game.seconds, stored.paused, stored.updated_at = seconds, paused, moment
        return stored

    def _played(self, row: GameRecord, moment: datetime) -> float:
        """The game's seconds played by `moment`: the time since its last action (or pause,
        or resume) counts up to the idle limit, and nothing while it is paused."""
        if row.paused:
            return row.seconds
        gap = (moment - _utc(row.updated_at)).total_seconds()
        return row.seconds + min(max(gap, 0.0), self.idle_limit)

    def load_game(self, player_id: str, game_id: str) -> StoredGame:
        """The player's game; raises GameNotFound."""
        with self._reading() as tx:
            row = self._select(tx, player_id, game_id)
            return self._stored(tx, row)

    def resume(self, player_id: str) -> StoredGame | None:
        """The player's most recently played unfinished game, if any."""
        with self._reading() as tx:
            row = tx.one_or_none(self._sql.latest_playing, {"player_id": player_id})
            return None if row is None else self._stored(tx, GameRecord(*row))

    def act(
        self, player_id: str, game_id: str, action: Action, *, version: int | None = None
    ) -> StoredGame:
        """Apply `action` to the game and commit it with its log entry, or change nothing.

        Raises GameNotFound, VersionConflict when `version` is given and is not the
        game's, and whatever the action raises (an EngineError) after rolling back.
        """
        for _ in range(RETRIES):
            with self._writing() as tx:
                row = self._select(tx, player_id, game_id, lock=True)
                if row.status == LOST:
                    raise GameOver(LOST)
                if version is not None and row.version != version:
                    raise VersionConflict(row.version)
                stored = self._stored(tx, row)
                game = stored.game
                stored.before = game.position
                action(game, Prefs(double_click=row.double_click))
                if self._save(tx, player_id, row, stored):
                    return stored
            if version is not None:
                break
        raise VersionConflict(self.load_game(player_id, game_id).version)

    def game_and_log(self, player_id: str, game_id: str) -> tuple[StoredGame, list[str]]:
        """The player's game and its action log, read together; raises GameNotFound."""
        with self._reading() as tx:
            stored = self._stored(tx, self._select(tx, player_id, game_id))
            log = [row[0] for row in tx.all(self._sql.log, {"game_id": game_id})]
        return stored, log

    def record_hint(self, player_id: str, game_id: str, *, version: int) -> StoredGame:
        """Count a hint given for the game at `version`; the game with its new count.

        Raises GameNotFound, and VersionConflict when the game has moved on since (the
        hint was for a position that is gone). The version itself does not change: a
        hint is not an action.
        """
        with self._writing() as tx:
            row = self._select(tx, player_id, game_id, lock=True)
            if row.version != version:
                raise VersionConflict(row.version)
            tx.write(self._sql.count_hint, {"game_id": game_id})
            stored = self._stored(tx, row)
        stored.hints_used += 1
        return stored

    def played_numbers(self, player_id: str) -> set[int]:
        """The deal numbers of the player's games (custom deals have none)."""
        with self._reading() as tx:
            rows = tx.all(self._sql.played_codes, {"player_id": player_id})
        numbers = (parse_code(row[0]).number for row in rows)
        return {number for number in numbers if number is not None}

    def log(self, game_id: str) -> list[str]:
        """The game's actions in order, as the engine writes them."""
        with self._reading() as tx:
            return [row[0] for row in tx.all(self._sql.log, {"game_id": game_id})]

    def replay(self, player_id: str, game_id: str) -> Game:
        """The game rebuilt from its deal code and action log alone (the truth)."""
        stored = self.load_game(player_id, game_id)
        game = Game.replay(stored.game.code, self.log(game_id))
        game.seconds = stored.game.seconds
        return game

    # -- rows <-> games ------------------------------------------------------------

    def _select(
        self, tx: Transaction, player_id: str, game_id: str, *, lock: bool = False
    ) -> GameRecord:
        if not ID_PATTERN.fullmatch(game_id):
            raise GameNotFound(game_id)
        query = self._sql.game_for_update if lock else self._sql.game
        row = tx.one_or_none(query, {"game_id": game_id, "player_id": player_id})
        if row is None:
            raise GameNotFound(game_id)
        return GameRecord(*row)

    def _stored(self, tx: Transaction, row: GameRecord) -> StoredGame:
        game_id = row.id
        query = self._sql.undo_entry

        def load(seq: int) -> UndoEntry:
            entry = tx.one_or_none(query, {"game_id": game_id, "seq": seq})
            assert entry is not None, f"undo entry {seq} of game {game_id} is missing"
            return undo_entry(*entry)

        return self.restore(row, load)

    def restore(self, row: GameRecord, load: Callable[[int], UndoEntry]) -> StoredGame:
        """The game of a row as read; `load(seq)` gives the undo entries it pops."""
        code = parse_code(row.code)
        game_id = row.id
        undo = UndoStack(
            code.rules.undo_limit,
            version=row.version,
            top=row.undo_top,
            count=row.undo_count,
            load=load,
        )
        game = Game.restore(
            code,
            position=self._positions.decode(row.position),
            points=row.points,
            moves=row.moves,
            seconds=row.seconds,
            undo=undo,
            version=row.version,
        )
        return StoredGame(
            game_id,
            row.code,
            game,
            row.status,
            _utc(row.created_at),
            _utc(row.updated_at),
            hints_used=row.hints_used,
            undo=undo,
            level=row.level,
            paused=row.paused,
        )

    def _save(
        self, tx: Transaction, player_id: str, row: GameRecord, stored: StoredGame
    ) -> bool:
        """Write the game's new actions and state, and count it if it is won now; False if
        another writer got there first."""
        saving = self.saving(row, stored)
        values, status = saving.values, saving.status
        statement = self._sql.save
        if status != row.status:
            statement = self._sql.save_with_status
            won = status == WON
            values.update(new_status=status, new_finished_at=saving.moment if won else None)
        # On PostgreSQL the count comes after the commit (None), but the game's row lock
        # makes the version check certain, and the log's key (game, seq) refuses a second
        # writer's entry, which rolls the whole transaction back.
        changed = tx.write(statement, values)
        if changed is not None and changed != 1:
            return False
        entries = saving.entries
        if len(entries) == 1:
            tx.write(self._sql.insert_actions, entries[0])
        elif entries:
            tx.execute_many(self._sql.insert_actions, entries)
        saving.done(stored)
        if status == WON and row.status != WON:
            self._count(tx, player_id, stored.finished())
        return True

    def saving(self, row: GameRecord, stored: StoredGame) -> Saving:
        """What saving the game after its action writes: the game row's new values (for
        the save statement) and the new log entries. Sets the game's seconds played."""
        game, undo = stored.game, stored.undo
        assert undo is not None, "only a game the store restored is saved"
        moment = self.clock()
        game.seconds = self._played(row, moment)
        won = game.won
        status = WON if won else PLAYING
        values = {
            "game_id": row.id,
            "read_version": row.version,
            "new_version": game.version,
            "new_score": game.score,
            "new_points": game.points,
            "new_moves": game.moves,
            "new_seconds": game.seconds,
            "new_position": self._positions.encode(game.position),
            "new_undo_count": undo.count,
            "new_undo_top": undo.top,
            "new_updated_at": moment,
            "new_paused": False,  # an action starts a paused clock again
        }
        pushed = undo.pushed
        entries = []
        for seq, action in enumerate(game.actions, start=game.base_version + 1):
            entry = pushed.get(seq)
            undo_position = None
            if entry:
                # Usually the position this action started from: its text is the row's.
                before = entry.position is stored.before
                undo_position = row.position if before else encode_position(entry.position)
            entries.append(
                {
                    "game_id": row.id,
                    "seq": seq,
                    "action": action,
                    "at": moment,
                    "undo_position": undo_position,
                    "undo_points": entry.points if entry else None,
                    "undo_below": entry.below if entry else None,
                }
            )
        return Saving(values, entries, status, moment)
