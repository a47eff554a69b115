"""PostgreSQL's busiest calls — an action (a move, a draw, an undo, a tap) and loading a
game — right on the event loop, through asyncpg: two round trips an action, no thread.

The store's own path (`Store.act` on a database thread, psycopg in pipeline mode) locks
the game's row, reads it, and writes the save and the log entry with the COMMIT. Here the
row is read by itself, the action applied, and the save and the log entry written by ONE
statement — its own transaction — that changes the row only if it is still as read:

    WITH saved AS (UPDATE games SET ... WHERE id = $1 AND version = $2
                   AND status = 'playing' AND updated_at = $3 RETURNING id)
    INSERT INTO actions ... SELECT ... FROM saved, unnest(<the new log entries>)

So the action is applied to the row as committed and commits only if nothing came
between (another action changes the version; a pause or a resume, `updated_at`; a new
game that ends this one, `status`; a hint, `hints_used`): the same outcome as under the
row lock. The
statement's UPDATE takes the row lock, so it waits for, and then sees, any writer that
holds it. What this path leaves alone goes to `Store.act` as before: a row that changed
since it was read (a 409 there if `version` was given, else the action again on the new
row), a game that is not `playing`, an action that wins it (the statistics are counted
in the same transaction), an undo of an entry not read with the row.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
from sqlalchemy import Engine

from app.engine.state import UndoEntry
from app.store.games import (
    ID_PATTERN,
    SAVED_COLUMNS,
    Action,
    GameNotFound,
    GameRecord,
    Prefs,
    Store,
    StoredGame,
    VersionConflict,
    undo_entry,
)
from app.store.models import PLAYING

_ROW = ", ".join(f"games.{name}" for name in GameRecord._fields[:-1])
# The game's row, its player's tap setting, and the undo entry on top of its stack (so that
# an undo needs no second read): one index look-up more than the row alone.
READ = f"""
SELECT {_ROW}, players.double_click,
       top_entry.undo_position, top_entry.undo_points, top_entry.undo_below
FROM games JOIN players ON players.id = games.player_id
LEFT OUTER JOIN actions AS top_entry
    ON top_entry.game_id = games.id AND top_entry.seq = games.undo_top
WHERE games.id = $1 AND games.player_id = $2
"""
_SET = ", ".join(f"{column} = ${index}" for index, column in enumerate(SAVED_COLUMNS, 5))
_ENTRY = ("seq", "action", "undo_position", "undo_points", "undo_below")
_ENTRY_TYPES = ("integer", "text", "text", "integer", "integer")
_FIRST_ENTRY = 5 + len(SAVED_COLUMNS)
_ARRAYS = ", ".join(f"${index}::{kind}[]" for index, kind in enumerate(_ENTRY_TYPES, _FIRST_ENTRY))
_HINTS = _FIRST_ENTRY + len(_ENTRY)
# The save and the log entries in one statement (its own transaction): nothing is written
# unless the row is still as read ($2 its version, $3 its updated_at, then its hints count:
# the answer shows it).
SAVE = f"""
WITH saved AS (
    UPDATE games SET {_SET}
    WHERE id = $1 AND version = $2 AND status = '{PLAYING}' AND updated_at = $3
        AND hints_used = ${_HINTS}
    RETURNING id
)
INSERT INTO actions (game_id, at, {", ".join(_ENTRY)})
SELECT saved.id, $4, {", ".join(f"entry.{name}" for name in _ENTRY)}
FROM saved, unnest({_ARRAYS}) AS entry({", ".join(_ENTRY)})
"""


class _NotRead(Exception):
    """The action pops an undo entry that was not read with the row."""


async def _keep_session(connection: asyncpg.Connection[Any]) -> None:
    """The pool's reset: nothing. Its default (`RESET ALL`, `UNLISTEN *`, ...) is one more
    round trip per call, and these statements change nothing in the session."""


class EventLoopGames:
    """`Store.act` and `Store.load_game` for PostgreSQL on the event loop (see above).

    Each event loop that calls it gets a pool of its own (asyncpg's connections belong
    to one loop: a server has one, tests have several), of up to `pool_size` connections.
    """

    def __init__(self, store: Store, engine: Engine, *, pool_size: int) -> None:
        self.store = store
        url = engine.url.set(drivername="postgresql")
        self.dsn = url.render_as_string(hide_password=False)
        self.pool_size = pool_size
        self._pools: dict[asyncio.AbstractEventLoop, asyncpg.Pool[Any]] = {}
        self._opening: dict[asyncio.AbstractEventLoop, asyncio.Task[asyncpg.Pool[Any]]] = {}

    async def pool(self) -> asyncpg.Pool[Any]:
        """This event loop's pool, opened on first use."""
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is not None:
            return pool
        opening = self._opening.get(loop)
        if opening is None:
            opening = loop.create_task(self._open())
            self._opening[loop] = opening
        try:
            pool = await opening
        finally:
            self._opening.pop(loop, None)
        self._pools[loop] = pool
        return pool

    async def _open(self) -> asyncpg.Pool[Any]:
        return await asyncpg.create_pool(
            self.dsn, min_size=1, max_size=self.pool_size, reset=_keep_session
        )

    async def close(self) -> None:
        """Close this event loop's pool, if it has one (it opens again when used)."""
        pool = self._pools.pop(asyncio.get_running_loop(), None)
        if pool is not None:
            await pool.close()

    def terminate(self) -> None:
        """Drop the connections of the pools whose loops have stopped (a test's); a loop
        still running (another thread's) closes its own, and a closed one's sockets
        close with it."""
        for loop, pool in list(self._pools.items()):
            if not loop.is_running():
                del self._pools[loop]
                if not loop.is_closed():
                    pool.terminate()

    async def act(
        self, player_id: str, game_id: str, action: Action, *, version: int | None
    ) -> StoredGame | None:
        """`Store.act` when it can be done here: the game as committed; None when it is
        left to `Store.act` (nothing was written). Raises GameNotFound, VersionConflict
        and what the action raises, as `Store.act`."""
        if not ID_PATTERN.fullmatch(game_id):
            raise GameNotFound(game_id)
        async with (await self.pool()).acquire() as connection:
            found = await connection.fetchrow(READ, game_id, player_id)
            if found is None:
                raise GameNotFound(game_id)
            row = GameRecord(*found[:-3])
            if row.status != PLAYING:
                return None
            if version is not None and row.version != version:
                raise VersionConflict(row.version)
            stored = self._restored(row, found[-3:])
            game = stored.game
            stored.before = game.position
            try:
                action(game, Prefs(double_click=row.double_click))
            except _NotRead:
                return None
            saving = self.store.saving(row, stored)
            entries = saving.entries
            if saving.status != PLAYING or not entries:
                return None
            values = saving.values
            written = await connection.execute(
                SAVE,
                row.id,
                row.version,
                row.updated_at,
                saving.moment,
                *(values[f"new_{column}"] for column in SAVED_COLUMNS),
                *([entry[name] for entry in entries] for name in _ENTRY),
                row.hints_used,
            )
        if written != f"INSERT 0 {len(entries)}":
            return None  # the row changed since it was read
        saving.done(stored)
        return stored

    async def load_game(self, player_id: str, game_id: str) -> StoredGame:
        """`Store.load_game`: the player's game; raises GameNotFound."""
        if not ID_PATTERN.fullmatch(game_id):
            raise GameNotFound(game_id)
        found = await (await self.pool()).fetchrow(READ, game_id, player_id)
        if found is None:
            raise GameNotFound(game_id)
        return self._restored(GameRecord(*found[:-3]), found[-3:])

    def _restored(self, row: GameRecord, top: Any) -> StoredGame:
        """The row's game; of its undo entries, only the top one (`top`) can be popped."""
        position, points, below = top

        def load(seq: int) -> UndoEntry:
            if seq != row.undo_top or position is None:
                raise _NotRead(seq)
            return undo_entry(position, points, below)

        return self.store.restore(row, load)
