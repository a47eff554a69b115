"""The store tests' fixtures: a hand-moved clock and a migrated store on each database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from app.store import Store, make_engine, migrate
from tests.shared import Clock, Databases


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


@pytest.fixture
def postgresql_engine(postgres_server: str, tmp_path: Path) -> Iterator[Engine]:
    """A migrated engine on a fresh PostgreSQL database (its pool: 2 connections)."""
    databases = Databases("postgresql", tmp_path, postgres_server)
    engine = make_engine(databases.new(), pool_size=2)
    migrate(engine)
    yield engine
    engine.dispose()
    databases.drop_all()
