"""The database schema: players, their games, and each game's actions (the undo history)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Constraint names that are the same on every database, so migrations can name them.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID_LENGTH = 32
PLAYING = "playing"
WON = "won"
LOST = "lost"  # abandoned: a new game was started while it was in progress (SPEC §10)
# Left without an action when a new game was started: not counted, no longer the game in
# progress (its result still reads `playing`: an action makes it the game in progress).
DROPPED = "dropped"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    """An anonymous player, named by a signed cookie, with the New game dialog's choices
    and the page's "Still winnable?" toggle."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    double_click: Mapped[bool]
    preset: Mapped[str] = mapped_column(String(16))
    draw: Mapped[int] = mapped_column(Integer)
    # Added by migration 0002: defaults on the database fill the rows that were there.
    winnable_only: Mapped[bool] = mapped_column(server_default=false())
    still_winnable: Mapped[bool] = mapped_column(server_default=false())
    # The casino bankroll (SPEC §10): the finished casino games and their scores' sum,
    # kept up to date in the transaction that finishes a game (migration 0005).
    casino_games: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    bankroll: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    # The level last chosen in the start window, and the menu's sound (migration 0005).
    level: Mapped[str] = mapped_column(String(8), server_default="medium")
    sound: Mapped[bool] = mapped_column(server_default=false())
    # Added by migration 0003_language: the saved language, NULL when none was chosen.
    lang: Mapped[str | None] = mapped_column(String(8))


class GameRow(Base):
    """One game. `code` plus its actions are the truth; the other state columns are a
    cache of the game after the last action, written in the same transaction."""

    __tablename__ = "games"
    # Resuming looks up a player's unfinished games. updated_at stays out of the index
    # so that a move, which changes it, does not rewrite an index entry too.
    __table_args__ = (
        # Resuming reads the newest of them by creation (which never changes: a move
        # rewrites no entry), so its cost does not grow with the player's games
        # (migration 0004; it was (player_id, status)).
        Index("ix_games_player_status_created", "player_id", "status", "created_at"),
        # Which of a few deal codes a player has played (winnable deals), without reading
        # the player's whole history (migration 0004).
        Index("ix_games_player_code", "player_id", "code"),
        # The clean-up finds games with no action by age: a partial index holds only
        # those, and a game leaves it with its first action (migration 0004).
        Index(
            "ix_games_unplayed",
            "updated_at",
            sqlite_where=text("version = 0"),
            postgresql_where=text("version = 0"),
        ),
    )

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("players.id", ondelete="CASCADE")
    )
    code: Mapped[str] = mapped_column(String(128))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    moves: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    position: Mapped[str] = mapped_column(Text)
    undo_count: Mapped[int] = mapped_column(Integer)
    undo_top: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # How many times the player asked the computer player for a hint (migration 0002).
    hints_used: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    # Migration 0005: the level (SPEC §10), and whether the game's clock is paused.
    level: Mapped[str] = mapped_column(String(8), server_default="medium")
    paused: Mapped[bool] = mapped_column(server_default=false())


class ModeStatsRow(Base):
    """A player's running statistics of one mode (preset, level, draw), folded with
    app.stats in the transaction that finishes a game, so reading them costs the same
    however many games the player has. `recent` holds the last finished games' outcomes
    for the results chart, as [[won, score], ...], oldest first."""

    __tablename__ = "player_stats"

    player_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    preset: Mapped[str] = mapped_column(String(16), primary_key=True)
    level: Mapped[str] = mapped_column(String(8), primary_key=True)
    draw: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    played: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)
    best_streak: Mapped[int] = mapped_column(Integer)
    best_score: Mapped[int | None] = mapped_column(Integer)
    best_seconds: Mapped[int | None] = mapped_column(Integer)
    fewest_moves: Mapped[int | None] = mapped_column(Integer)
    recent: Mapped[list[Any]] = mapped_column(JSON)


class ActionRow(Base):
    """One applied action, in order: `seq` is the game's version right after it.

    A move keeps the undo entry it pushed (the position and points before it,
    and the `seq` of the entry below), so an undo restores it without a replay.
    """

    __tablename__ = "actions"
    # On SQLite the log is stored in its primary key's order (one B-tree, not two).
    __table_args__ = ({"sqlite_with_rowid": False},)

    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    action: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    undo_position: Mapped[str | None] = mapped_column(Text)
    undo_points: Mapped[int | None] = mapped_column(Integer)
    undo_below: Mapped[int | None] = mapped_column(Integer)


class Counter(Base):
    """A rate limit's counter (app/store/limits.py): hits in the window that ends at
    `expires_at` (seconds since the epoch). Shared by every server on the database."""

    __tablename__ = "counters"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float)


class Search(Base):
    """The one search a player may have running or waiting (app/store/limits.py): held
    by `token` until released, or until `expires_at` should its server have died."""

    __tablename__ = "searches"

    player_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    token: Mapped[str] = mapped_column(String(ID_LENGTH))
    expires_at: Mapped[float] = mapped_column(Float)


players = cast(Table, Player.__table__)
games = cast(Table, GameRow.__table__)
actions = cast(Table, ActionRow.__table__)
player_stats = cast(Table, ModeStatsRow.__table__)
counters = cast(Table, Counter.__table__)
searches = cast(Table, Search.__table__)
