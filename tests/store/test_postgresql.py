"""PostgreSQL's lean path: a pipelined transaction that writes all or nothing, and pooled
connections the server closed replaced without an error."""

from __future__ import annotations

import time

import psycopg
import pytest
from sqlalchemy import Engine, create_engine, text

from app.engine import DealCode
from app.store import Store
from app.store.games import Action

CODE = DealCode.parse("CF1-D3-AAAAACL")


@pytest.fixture
def engine(postgresql_engine: Engine) -> Engine:
    return postgresql_engine


def draw() -> Action:
    return lambda game, prefs: game.play("draw")


def test_a_write_that_fails_at_the_commit_leaves_the_game_as_it_was(engine: Engine) -> None:
    store = Store(engine)
    stored = store.create_game("player", CODE)
    store.act("player", stored.id, draw())
    # Someone else's log entry where the next action goes: the save's INSERT fails when
    # the pipeline sends it with the COMMIT, after the game's row was updated.
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
                "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = :name AND pid <> pg_backend_pid()"
            ),
            {"name": engine.url.database},
        ).all()
        assert ended  # the pool's connection was among them
        # The server's goodbye reaches the socket: the backends have exited.
        deadline = time.monotonic() + 30
        alive = text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:pids)")
        while connection.execute(alive, {"pids": [pid for pid, _ in ended]}).scalar_one():
            assert time.monotonic() < deadline, "the backends did not end"
            time.sleep(0.02)
    admin.dispose()
    assert store.act("player", stored.id, draw()).version == 2
    assert store.load_game("player", stored.id).version == 2
