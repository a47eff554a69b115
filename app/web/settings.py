"""The server's settings, read once from the environment (pydantic-settings)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.store.db import normalise_url

ROOT = Path(__file__).resolve().parents[2]


class Settings(BaseSettings):
    """Environment: DATABASE_URL, SECRET_KEY, and CANFIELD_* for the rest.

    Unset, the database is a SQLite file in the data folder and the secret key is
    generated once and kept there (`secret_key` file), so cookies outlive restarts.
    Several servers sharing one PostgreSQL must be given the same SECRET_KEY.
    """

    model_config = SettingsConfigDict(env_prefix="CANFIELD_", populate_by_name=True)

    database_url: str = Field(
        default="", validation_alias=AliasChoices("DATABASE_URL", "database_url")
    )
    secret_key: str = Field(default="", validation_alias=AliasChoices("SECRET_KEY", "secret_key"))
    data_dir: Path = Path("data")
    templates_dir: Path = ROOT / "templates"
    static_dir: Path = ROOT / "static"
    idle_limit_seconds: float = 60.0
    """A gap between two actions counts as playing time only up to this (skill scoring)."""
    max_body_bytes: int = 16 * 1024
    workers: int = 1
    """Server processes (uvicorn workers). On SQLite they take turns to write (a file
    lock); on PostgreSQL each works on its own."""
    db_threads: int | None = None
    """Worker threads for database calls; 0 runs them on the event loop. Unset: 0 on
    SQLite (its calls are short and take turns anyway; measured fastest, see
    bench/server.py) and 8 on PostgreSQL (whose calls wait on the network)."""
    db_pool_size: int | None = None
    """Connections each server keeps open to PostgreSQL. Unset: one per database thread,
    so that no call waits for a connection and none is opened and closed per call."""
    db_event_loop: bool = True
    """PostgreSQL: actions and game loads run on the event loop through asyncpg (two round
    trips an action, no thread; app/store/pg_loop.py). False: on the database threads."""
    db_loop_pool_size: int = 16
    """PostgreSQL with `db_event_loop`: at most this many connections for the actions
    (opened as needed, closed after 5 idle minutes). An action holds one while the event
    loop turns to it between its two statements: on a busy loop, with 8, moves queued
    for them (bench/server.py, 32 players; README, deployment)."""
    allowed_origins: list[str] = []
    """Origins besides the server's own that may post (e.g. the public https origin
    behind a proxy that rewrites Host)."""

    # -- fairness and limits (SPEC §12) -------------------------------------------------
    solver_workers: int | None = None
    """Solver worker processes per server process; unset: the cores it may use."""
    solver_max_waiting: int = 256
    """Searches that may wait for a worker at once (each player has at most one)."""
    games_per_player: str = "120/minute;5/second"
    """New games a player may start (`limits` rates, several joined by ";"): SPEC's 120
    a minute, and no burst of more than 5 a second (which a script dealing as fast as it
    can otherwise spends at once, holding up everyone's moves meanwhile)."""
    games_per_address: str = "1200/minute;50/second"
    searches_per_player: str = "60/minute"
    """Hints, still-winnable checks and winnable-deal searches a player may ask for."""
    searches_per_address: str = "600/minute"
    prune_after_days: float = 30.0
    """Games with no action, of players not seen for this long, are removed."""
    prune_interval_seconds: float = 3600.0
    """How often each server runs the clean-up (0: never; `canfield prune` still does)."""
    sqlite_wal_limit_bytes: int = 4 * 1024 * 1024
    """SQLite's write-ahead log is cut back to this after a checkpoint (journal_size_limit)."""
    trusted_hosts: str = Field(
        default="*", validation_alias=AliasChoices("TRUSTED_HOSTS", "trusted_hosts")
    )
    """Host names the server answers to, comma-separated (`*.example.org` allowed); `*`: any."""
    http: str = "guarded"
    """The HTTP protocol: `guarded` (app/web/protocol.py: uvicorn's httptools with the
    limits below), or uvicorn's own `httptools` or `h11` (bench/server.py --http)."""
    max_header_bytes: int = 16 * 1024
    """The request line and headers together (431 beyond)."""
    max_headers: int = 100
    header_timeout_seconds: float = 10.0
    """A request's line and headers must arrive within this (else 408 and the connection
    closes)."""
    body_timeout_seconds: float = 30.0
    max_connections: int = 2000
    """Open connections and requests in hand per server process (503 beyond)."""
    metrics: bool = True
    """Serve Prometheus metrics at /metrics."""

    def resolved_database_url(self) -> str:
        """DATABASE_URL, or the SQLite file `canfield.db` in the data folder."""
        if self.database_url:
            return normalise_url(self.database_url)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'canfield.db').resolve()}"

    def resolved_secret_key(self) -> str:
        """SECRET_KEY, or the key kept in the data folder (made on first start)."""
        if self.secret_key:
            return self.secret_key
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret_key"
        if not path.exists():
            # Written aside, then linked into place: two servers starting at once
            # end up with the one key that won the link.
            draft = path.with_name(f".secret_key.{os.getpid()}")
            fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as file:
                file.write(secrets.token_urlsafe(32) + "\n")
            try:
                os.link(draft, path)
            except FileExistsError:
                pass
            finally:
                draft.unlink()
        return path.read_text().strip()
