"""SQLite's WAL checkpoints run on the checkpointer's thread, not in a request's commit."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.engine import DealCode
from app.store import Store, make_engine, migrate
from app.store.aio import AsyncStore
from app.store.db import BACKSTOP_CHECKPOINT_PAGES, Checkpointer
from app.web.settings import Settings
from tests.shared import Databases


class CountingCheckpointer(Checkpointer):
    """A checkpointer that tells the test what each of its checkpoints found."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, interval=0.01)
        self.results: list[tuple[int, int, int]] = []
        self.copied = threading.Event()

    def checkpoint(self, connection: Any) -> tuple[int, int, int]:
        result = super().checkpoint(connection)
        self.results.append(result)
        busy, frames, copied = result
        if not busy and frames and copied == frames:
            self.copied.set()
        return result


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'wal.sqlite'}", background_checkpoints=True)
    migrate(engine)
    yield engine
    engine.dispose()


def wal_autocheckpoint(engine: Engine) -> int:
    with engine.connect() as connection:
        pages: int = connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar_one()
    return pages


def play_a_while(engine: Engine) -> None:
    store = Store(engine)
    stored = store.create_game("alice", DealCode.parse("CF1-D1-HELLOAB"))
    for _ in range(20):
        stored = store.act("alice", stored.id, lambda game, prefs: game.play("draw"))
    store.close()


def test_commits_leave_checkpoints_to_the_checkpointer_up_to_a_backstop(
    engine: Engine, tmp_path: Path
) -> None:
    assert wal_autocheckpoint(engine) == BACKSTOP_CHECKPOINT_PAGES
    plain = make_engine(f"sqlite:///{tmp_path / 'plain.sqlite'}")
    assert wal_autocheckpoint(plain) == 1000  # SQLite's own
    plain.dispose()


def test_a_checkpoint_copies_every_frame_of_the_wal(engine: Engine) -> None:
    play_a_while(engine)
    connection = engine.raw_connection()
    try:
        busy, frames, copied = Checkpointer(engine).checkpoint(connection)
    finally:
        connection.close()
    assert busy == 0
    assert frames > 20  # a page or more per move
    assert copied == frames


def test_the_thread_checkpoints_what_is_written_until_it_is_stopped(engine: Engine) -> None:
    checkpointer = CountingCheckpointer(engine)
    checkpointer.start()
    checkpointer.start()  # once is enough
    assert checkpointer.running
    play_a_while(engine)
    assert checkpointer.copied.wait(10)
    checkpointer.stop()
    assert not checkpointer.running
    after = len(checkpointer.results)
    play_a_while(engine)
    assert len(checkpointer.results) == after
    checkpointer.start()
    assert checkpointer.running
    checkpointer.stop()
    checkpointer.stop()


def test_the_app_runs_checkpoints_between_its_start_and_its_stop(tmp_path: Path) -> None:
    from app.web.app import create_app

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'app.sqlite'}", data_dir=tmp_path, secret_key="k"
    )
    app = create_app(settings)
    checkpointer = app.state.store.checkpointer
    assert isinstance(checkpointer, Checkpointer)
    assert not checkpointer.running
    with TestClient(app):
        assert checkpointer.running
    assert not checkpointer.running
    with TestClient(app):
        assert checkpointer.running
    assert not checkpointer.running
    app.state.store.close()


def test_the_store_calls_sqlite_on_the_event_loop_and_postgresql_on_worker_threads(
    app: FastAPI, databases: Databases
) -> None:
    """PostgreSQL checkpoints by itself (no checkpointer), and its calls, which wait on the
    network, run on the store's worker threads; SQLite's run where they are awaited."""
    store: AsyncStore = app.state.store

    def thread_name(_store: Store) -> str:
        return threading.current_thread().name

    names: dict[str, str] = {}

    def await_the_call() -> None:
        names["caller"] = threading.current_thread().name
        names["store"] = asyncio.run(store.run(thread_name))

    # Awaited on a thread of its own: the browser tests' Playwright keeps an event loop
    # running on the main thread for the whole session.
    caller = threading.Thread(target=await_the_call, name="awaiting")
    caller.start()
    caller.join(30)
    if databases.kind == "postgresql":
        assert store.checkpointer is None
        assert names["store"].startswith("store")
    else:
        assert isinstance(store.checkpointer, Checkpointer)
        assert names["store"] == names["caller"] == "awaiting"
