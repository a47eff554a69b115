"""Database engines for SQLite and PostgreSQL, SQLite's background checkpoints, and
applying the Alembic migrations."""

from __future__ import annotations

import logging
import select
import threading
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
# A Connection execution option: this transaction writes (SQLite takes the write lock at BEGIN).
WRITE = "canfield_write"
BUSY_TIMEOUT_MS = 5000
# Without a limit the WAL file keeps the largest size it ever reached (41 MB seen).
WAL_LIMIT_BYTES = 4 * 1024 * 1024
# SQLite's own checkpoint size (in pages; its default is 1000) where a Checkpointer does the
# checkpoints: only a backstop, should that thread not be running.
BACKSTOP_CHECKPOINT_PAGES = 10_000
# Any fixed number: the PostgreSQL advisory lock that one migrating server holds.
_MIGRATION_LOCK = 0x43414E46
_log = logging.getLogger(__name__)


def normalise_url(url: str) -> str:
    """Use the psycopg 3 driver for plain `postgresql://` and `postgres://` URLs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(
    url: str,
    *,
    background_checkpoints: bool = False,
    wal_limit_bytes: int = WAL_LIMIT_BYTES,
    **options: Any,
) -> Engine:
    """An engine for `url`. SQLite runs in WAL mode with synchronous=NORMAL, a busy
    timeout and foreign keys on, and a writing transaction begins IMMEDIATE so that
    two processes never both read and then fail to write. With `background_checkpoints`
    its commits leave the WAL's checkpoints to a Checkpointer (up to a backstop). Its
    WAL is cut back to `wal_limit_bytes` when a checkpoint lets it start over."""
    url = normalise_url(url)
    if make_url(url).get_backend_name() != "sqlite":
        # A few more than the pool keeps, for a burst; beyond that a call waits its turn
        # rather than open (and close again) a connection of its own.
        options.setdefault("max_overflow", 2)
        engine = create_engine(url, **options)
        event.listen(engine, "checkout", _check_postgresql_connection)
        return engine
    engine = create_engine(url, connect_args={"check_same_thread": False}, **options)
    checkpoint_pages = BACKSTOP_CHECKPOINT_PAGES if background_checkpoints else 1000

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
            f"wal_autocheckpoint={checkpoint_pages}",
            f"journal_size_limit={wal_limit_bytes}",
        ):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        writes = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    return engine


def _check_postgresql_connection(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """A pooled connection that the server has closed (a restart, an idle timeout) is
    replaced before use, without a round trip for the others (pool_pre_ping's `SELECT`
    was one of a move's six): an idle connection has nothing to read unless the server
    said goodbye, so only then is it pinged."""
    if dbapi_connection.closed:
        raise DisconnectionError("closed")
    readable, _, _ = select.select([dbapi_connection.fileno()], [], [], 0)
    if not readable:
        return
    try:
        dbapi_connection.autocommit = True  # no transaction for the ping
        dbapi_connection.execute(";")  # also reads what the server said, if harmless
        dbapi_connection.autocommit = False
    except Exception as error:
        raise DisconnectionError(str(error)) from error


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


class Background:
    """Work that runs every `interval` seconds on a thread of its own (`_run`, which
    waits on `_stopping` between rounds): SQLite's checkpoints, the clean-up."""

    thread_name = "background"

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the thread (again, after `stop`); nothing if it runs."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and wait for it (repeatable)."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        raise NotImplementedError


class Checkpointer(Background):
    """Copies SQLite's write-ahead log into the database file on a thread of its own,
    every `interval` seconds (for an engine made with `background_checkpoints`).

    Otherwise the commit that fills the WAL to 1000 pages does it, with two fsyncs, in
    the middle of a request: on the event loop that stalled every request in flight
    for 10-16 ms, about once every 300 moves (bench/server.py). A PASSIVE checkpoint
    waits for no reader or writer, and writers go on while it runs.
    """

    thread_name = "sqlite-checkpoints"

    def __init__(self, engine: Engine, interval: float = 0.2) -> None:
        super().__init__(interval)
        self.engine = engine

    def checkpoint(self, connection: Any) -> tuple[int, int, int]:
        """One PASSIVE checkpoint on a DBAPI connection: (busy, WAL frames, frames
        copied), as SQLite reports them."""
        cursor = connection.cursor()
        try:
            cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
            busy, frames, copied = cursor.fetchone()
        finally:
            cursor.close()
        return busy, frames, copied

    def _run(self) -> None:
        connection = None
        while not self._stopping.wait(self.interval):
            try:
                if connection is None:
                    connection = self.engine.raw_connection()
                self.checkpoint(connection)
            except Exception:
                # Tried again next round; SQLite's backstop checkpoints meanwhile.
                _log.exception("SQLite checkpoint failed")
                if connection is not None:
                    connection.invalidate()
                    connection = None
        if connection is not None:
            connection.close()


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
