"""The clean-up that keeps storage bounded: games with no action, of players not seen for
a while, players left with no game, and spent rate-limit counters and search leases.

A player is seen when they write: a game created or played (its `updated_at`), or
their row created. It runs in small batches (each its own short transaction), so
on SQLite the players' writes go on between them; `canfield prune` runs it by hand
and every server on a schedule (`Pruner`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, delete, exists, literal_column, select
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import BindParameter

from app.store.db import Background
from app.store.games import Store, now
from app.store.models import counters, games, players, searches
from app.store.sql import Prepared

BATCH = 500
_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Pruned:
    """What one clean-up removed."""

    games: int
    players: int
    counters: int
    searches: int


class Pruning:
    """The clean-up's statements, compiled once for the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        dialect = store.engine.dialect
        recent = aliased(games)
        cutoff: BindParameter[datetime] = bindparam("cutoff")
        # Through the partial index of games with no action (ix_games_unplayed: the 0 is
        # written into the SQL, as the index's condition is), then each candidate's
        # player's games (ix_games_player_status_created).
        stale_games = (
            select(games.c.id)
            .where(games.c.version == literal_column("0"), games.c.updated_at < cutoff)
            .where(
                ~exists().where(
                    and_(recent.c.player_id == games.c.player_id, recent.c.updated_at >= cutoff)
                )
            )
            .limit(BATCH)
        )
        idle_players = (
            select(players.c.id)
            .where(players.c.created_at < cutoff)
            .where(~exists().where(games.c.player_id == players.c.id))
            .limit(BATCH)
        )
        self._stale_games = Prepared(stale_games, dialect)
        self._idle_players = Prepared(idle_players, dialect)
        self._delete_game = Prepared(delete(games).where(games.c.id == bindparam("id")), dialect)
        self._delete_player = Prepared(
            delete(players).where(players.c.id == bindparam("id")), dialect
        )
        moment: BindParameter[float] = bindparam("now")
        self._spent_counters = Prepared(
            delete(counters).where(counters.c.expires_at < moment), dialect
        )
        self._spent_searches = Prepared(
            delete(searches).where(searches.c.expires_at < moment), dialect
        )

    def _batches(self, query: Prepared, remove: Prepared, cutoff: datetime) -> int:
        removed = 0
        while True:
            with self.store.writing() as tx:
                ids = [row[0] for row in tx.all(query, {"cutoff": cutoff})]
                if ids:
                    tx.execute_many(remove, [{"id": id_} for id_ in ids])
            removed += len(ids)
            if len(ids) < BATCH:
                return removed

    def run(self, *, days: float, moment: datetime | None = None) -> Pruned:
        """Remove what has not been seen for `days` (as of `moment`, default now)."""
        moment = moment or now()
        cutoff = moment - timedelta(days=days)
        removed_games = self._batches(self._stale_games, self._delete_game, cutoff)
        removed_players = self._batches(self._idle_players, self._delete_player, cutoff)
        with self.store.writing() as tx:
            epoch = {"now": moment.timestamp()}
            spent_counters = tx.execute(self._spent_counters, epoch)
            spent_searches = tx.execute(self._spent_searches, epoch)
        return Pruned(removed_games, removed_players, spent_counters, spent_searches)


class Pruner(Background):
    """Runs the clean-up every `interval` seconds on a thread of its own (never on the
    event loop; an interval of 0 never starts it); several servers may each run it, it
    removes each thing once."""

    thread_name = "prune"

    def __init__(self, store: Store, *, days: float, interval: float) -> None:
        super().__init__(interval)
        self.pruning = Pruning(store)
        self.days = days

    def start(self) -> None:
        if self.interval > 0:
            super().start()

    def _run(self) -> None:
        while not self._stopping.wait(self.interval):
            try:
                started = time.perf_counter()
                pruned = self.pruning.run(days=self.days)
                _log.info("pruned %s in %.2f s", pruned, time.perf_counter() - started)
            except Exception:
                _log.exception("the clean-up failed; it runs again later")
