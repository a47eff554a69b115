"""The store tests' fixtures: a hand-moved clock and a migrated store on each database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.store import Store, make_engine, migrate
from tests.shared import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(database_url: str, clock: Clock) -> Iterator[Store]:
    engine = make_engine(database_url)
    migrate(engine)
    store = Store(engine, idle_limit=60.0, clock=clock)
    yield store
    store.close()
    engine.dispose()
