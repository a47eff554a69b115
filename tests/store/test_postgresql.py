"""PostgreSQL's lean path: a move in two round trips of prepared statements, a batch that
writes all or nothing, and pooled connections the server closed replaced without an
error."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine, create_engine, text

from app.engine import DealCode
from app.store import Store, make_engine, migrate
from app.store.games import Action
from tests.conftest import Databases

CODE = DealCode.parse("CF1-D3-AAAAACL")


@pytest.fixture
def engine(postgres_server: str, tmp_path: Path) -> Iterator[Engine]:
    databases = Databases("postgresql", tmp_path, postgres_server)
    engine = make_engine(databases.new(), pool_size=2)
    migrate(engine)
    yield engine
    engine.dispose()
    databases.drop_all()


def draw() -> Action:
    return lambda game, prefs: game.play("draw")


def test_a_write_that_fails_at_the_commit_leaves_the_game_as_it_was(engine: Engine) -> None:
    store = Store(engine)
    stored = store.create_game("player", CODE)
    store.act("player", stored.id, draw())
    # Someone else's log entry where the next action goes: the save's INSERT fails when
    # its batch goes with the COMMIT, after the game's row was updated.
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO actions (game_id, seq, action, at) VALUES (:id, 2, 'x', now())"),
            {"id": stored.id},
        )
    with pytest.raises(psycopg.errors.UniqueViolation):
        store.act("player", stored.id, draw())
    game = store.load_game("player", stored.id)
    assert game.version == 1
    assert store.log(stored.id) == ["draw", "x"]
    # The connection is fine afterwards, and so is the game once the stray entry is gone.
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM actions WHERE action = 'x'"))
    assert store.act("player", stored.id, draw()).version == 2
    assert store.log(stored.id) == ["draw", "draw"]


def test_a_move_is_two_round_trips_of_statements_prepared_once_per_connection(
    postgres_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    databases = Databases("postgresql", tmp_path, postgres_server)
    engine = make_engine(databases.new(), pool_size=1, max_overflow=0)  # one connection
    migrate(engine)
    store = Store(engine)
    stored = store.create_game("player", CODE)
    queries: list[str] = []
    execute = psycopg.ClientCursor.execute

    def counted(cursor: psycopg.ClientCursor[Any], query: Any, *args: Any, **kw: Any) -> Any:
        queries.append(str(query))
        return execute(cursor, query, *args, **kw)

    monkeypatch.setattr(psycopg.ClientCursor, "execute", counted)
    try:
        for version in range(1, 4):
            assert store.act("player", stored.id, draw(), version=version - 1).version == version
        # The first move prepares its three statements; each move is two round trips.
        assert len(queries) == 6
        assert all(query.startswith("BEGIN;") for query in queries[::2])
        assert all(query.endswith(";COMMIT") for query in queries[1::2])
        prepared = re.findall(r"PREPARE (\w+) AS", ";".join(queries))
        assert len(prepared) == 3
        assert "PREPARE " not in ";".join(queries[2:])
        connection = engine.raw_connection()  # the same connection: the server has them
        try:
            cursor = connection.cursor()
            cursor.execute("SELECT name FROM pg_prepared_statements")
            assert set(prepared) <= {row[0] for row in cursor.fetchall()}
        finally:
            connection.close()
    finally:
        engine.dispose()
        databases.drop_all()


def test_a_refused_action_rolls_back_and_the_connection_goes_on(engine: Engine) -> None:
    store = Store(engine)
    stored = store.create_game("player", CODE)
    for _ in range(3):
        with pytest.raises(ValueError):
            store.act("player", stored.id, lambda game, prefs: game.play("KS-f"))
    assert store.act("player", stored.id, draw()).version == 1
    with engine.connect() as connection:  # SQLAlchemy's own use of a pooled connection
        assert connection.execute(text("SELECT count(*) FROM actions")).scalar() == 1


def test_connections_the_server_closed_are_replaced_without_an_error(
    engine: Engine, postgres_server: str
) -> None:
    store = Store(engine)
    stored = store.create_game("player", CODE)
    store.act("player", stored.id, draw())
    admin = create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        ended = connection.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = :name AND pid <> pg_backend_pid()"
            ),
            {"name": engine.url.database},
        ).all()
    admin.dispose()
    assert ended  # the pool's connection was among them
    time.sleep(0.2)  # the server's goodbye reaches the socket
    assert store.act("player", stored.id, draw()).version == 2
    assert store.load_game("player", stored.id).version == 2
