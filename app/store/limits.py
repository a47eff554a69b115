"""Limits that every server on the database shares: the rate limits' counters (a storage
for the `limits` library) and the one search each player may have running or waiting."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from limits.storage import Storage
from sqlalchemy import bindparam, case, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from app.store.games import Store
from app.store.models import counters, searches
from app.store.sql import Prepared


def _insert(store: Store) -> Any:
    return sqlite.insert if store.engine.dialect.name == "sqlite" else postgresql.insert


def returning(statement: Any, column: Any, dialect: Any) -> Prepared:
    """An INSERT ... RETURNING, prepared: Prepared reads a SELECT's columns for the
    types of the answer, so the returned column is given here."""
    prepared = Prepared(statement, dialect)
    prepared.columns = [column]
    return prepared


class CounterStorage(Storage):
    """Fixed-window counters in the `counters` table: one upsert a hit, so several
    processes (SQLite) or servers (PostgreSQL) count together. Used through
    `limits.strategies.FixedWindowRateLimiter`."""

    STORAGE_SCHEME = ["canfield-counters"]  # noqa: RUF012  # the base class declares it so

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.store = store
        self.clock = clock
        dialect = store.engine.dialect
        upsert = _insert(store)(counters).values(
            key=bindparam("key"), count=bindparam("amount"), expires_at=bindparam("expires")
        )
        expired = counters.c.expires_at <= bindparam("now")
        hit = upsert.on_conflict_do_update(
            index_elements=[counters.c.key],
            set_={
                # Both read the row as it was: SET sees the old values.
                "count": case(
                    (expired, upsert.excluded.count), else_=counters.c.count + upsert.excluded.count
                ),
                "expires_at": case(
                    (expired, upsert.excluded.expires_at), else_=counters.c.expires_at
                ),
            },
        ).returning(counters.c.count)
        live = (counters.c.key == bindparam("key")) & (counters.c.expires_at > bindparam("now"))
        self._hit = returning(hit, counters.c.count, dialect)
        self._get = Prepared(select(counters.c.count, counters.c.expires_at).where(live), dialect)
        self._clear = Prepared(delete(counters).where(counters.c.key == bindparam("key")), dialect)
        self._reset = Prepared(delete(counters), dialect)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return Exception

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = self.clock()
        values = {"key": key, "amount": amount, "expires": now + expiry, "now": now}
        with self.store.writing() as tx:
            row = tx.one_or_none(self._hit, values)
        assert row is not None
        return int(row[0])

    def _row(self, key: str) -> tuple[Any, ...] | None:
        with self.store.reading() as tx:
            return tx.one_or_none(self._get, {"key": key, "now": self.clock()})

    def get(self, key: str) -> int:
        row = self._row(key)
        return 0 if row is None else int(row[0])

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return self.clock() if row is None else float(row[1])

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self.store.writing() as tx:
            return tx.execute(self._reset, {})

    def clear(self, key: str) -> None:
        with self.store.writing() as tx:
            tx.execute(self._clear, {"key": key})


class Searches:
    """Each player's one search, running or waiting, held in the `searches` table by a
    token: taken when free (or when its holder's lease ran out: a server that died
    does not lock its players out), given back when the search is over."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        dialect = store.engine.dialect
        upsert = _insert(store)(searches).values(
            player_id=bindparam("player_id"),
            token=bindparam("token"),
            expires_at=bindparam("expires"),
        )
        take = upsert.on_conflict_do_update(
            index_elements=[searches.c.player_id],
            set_={"token": upsert.excluded.token, "expires_at": upsert.excluded.expires_at},
            where=searches.c.expires_at <= bindparam("now"),
        ).returning(searches.c.token)
        mine = (searches.c.player_id == bindparam("player_id")) & (
            searches.c.token == bindparam("token")
        )
        self._take = returning(take, searches.c.token, dialect)
        self._give_back = Prepared(delete(searches).where(mine), dialect)

    def take(self, player_id: str, token: str, lease: float) -> bool:
        """Hold the player's search with `token` for at most `lease` seconds; False when
        the player has one already."""
        now = self.clock()
        values = {"player_id": player_id, "token": token, "expires": now + lease, "now": now}
        with self.store.writing() as tx:
            row = tx.one_or_none(self._take, values)
        return row is not None and row[0] == token

    def give_back(self, player_id: str, token: str) -> None:
        with self.store.writing() as tx:
            tx.execute(self._give_back, {"player_id": player_id, "token": token})
