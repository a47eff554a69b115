"""The migrations build exactly the models' schema, on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from app.store.db import alembic_config, make_engine, migrate
from app.store.models import Base
from tests.shared import Databases


def test_the_migrations_produce_exactly_the_models_schema(databases: Databases) -> None:
    engine = make_engine(databases.new(migrated=False))
    try:
        with engine.connect() as connection:
            assert inspect(connection).get_table_names() == []
        migrate(engine)
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, Base.metadata)
            assert differences == []
            assert set(inspect(connection).get_table_names()) >= {"players", "games", "actions"}
    finally:
        engine.dispose()


def test_migrating_twice_changes_nothing(databases: Databases) -> None:
    engine = make_engine(databases.new(migrated=False))
    try:
        migrate(engine)
        migrate(engine)
        with engine.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == ScriptDirectory.from_config(alembic_config()).get_current_head()
    finally:
        engine.dispose()


def test_on_sqlite_the_action_log_is_kept_in_its_key_order(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'rowid.sqlite'}")
    try:
        migrate(engine)
        with engine.connect() as connection:
            sql = connection.execute(
                text("SELECT sql FROM sqlite_master WHERE name = 'actions'")
            ).scalar()
    finally:
        engine.dispose()
    assert "WITHOUT ROWID" in sql
