"""Database engines for SQLite and PostgreSQL, and applying the Alembic migrations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
# A Connection execution option: this transaction writes (SQLite takes the write lock at BEGIN).
WRITE = "canfield_write"
BUSY_TIMEOUT_MS = 5000
# Any fixed number: the PostgreSQL advisory lock that one migrating server holds.
_MIGRATION_LOCK = 0x43414E46


def normalise_url(url: str) -> str:
    """Use the psycopg 3 driver for plain `postgresql://` and `postgres://` URLs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str, **options: Any) -> Engine:
    """An engine for `url`. SQLite runs in WAL mode with synchronous=NORMAL, a busy
    timeout and foreign keys on, and a writing transaction begins IMMEDIATE so that
    two processes never both read and then fail to write."""
    url = normalise_url(url)
    if make_url(url).get_backend_name() != "sqlite":
        options.setdefault("pool_pre_ping", True)
        return create_engine(url, **options)
    engine = create_engine(url, connect_args={"check_same_thread": False}, **options)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # pysqlite's own implicit BEGIN is turned off; `_begin` below issues ours.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in (
            "journal_mode=WAL",
            "synchronous=NORMAL",
            f"busy_timeout={BUSY_TIMEOUT_MS}",
            "foreign_keys=ON",
        ):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        writes = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    return engine


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to `revision`, one server at a time."""
    config = alembic_config()
    with engine.connect() as connection:
        connection.execution_options(**{WRITE: True})
        with connection.begin():
            if engine.dialect.name == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
