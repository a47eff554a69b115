"""What the tests share: the seeds' example game (SPEC §9), a deck one move spoils, fresh
databases of each kind and a real `canfield serve` process (tests/conftest.py makes them
fixtures). Import it as `from tests.shared import ...`."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
from sqlalchemy import create_engine, text

T = TypeVar("T")


def run_in_own_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on a fresh event loop in its own thread: the browser tests'
    Playwright keeps a loop running in the main thread for the whole session, and
    `asyncio.run` refuses to start beside it."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


ROOT = Path(__file__).resolve().parents[1]
DATABASES = ("sqlite", "postgresql")
TEMPLATE_DB = "canfield_template"

# -- the seeds' example game of SPEC §9: its deck, code and the summaries it reads ----

DEALING_ORDER = (
    "AC 2C 3C 4C 5C 7C 8C 9C TC JS QS 8H QC 7H 6C KH QH AS JC KC AD 2D 3D 4D 5D 6D "
    "7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 9H TH JH 2S 3S 4S 5S 6S 7S 8S 9S TS KS"
)
SEED_DECK = DEALING_ORDER.split()
SEED_CODE = "CF1-D3-AAAAAAAOEGYXXBLQBCLVSVVBKAUAXFBHCBYLVAMIYTIVUUAA"
SEED_OPENING = (
    "Stock: 34 cards; waste empty; reserve: 13 cards, top: queen of clubs. "
    "Foundations, start rank 7: hearts up to 7 of hearts (1), spades empty, diamonds empty, "
    "clubs empty. Column 1: 6 of clubs; column 2: king of hearts; column 3: queen of hearts; "
    "column 4: ace of spades."
)
# After QC-t2, 8H-f, KH-t4: column 2 empties and the reserve refills it with QS.
SEED_AFTER_THREE = (
    "Stock: 34 cards; waste empty; reserve: 10 cards, top: jack of spades. "
    "Foundations, start rank 7: hearts up to 8 of hearts (2), spades empty, diamonds empty, "
    "clubs empty. Column 1: 6 of clubs; column 2: queen of spades; column 3: queen of hearts; "
    "column 4: ace of spades, king of hearts, queen of clubs."
)

# -- a deck whose opening can be won but one move spoils (the hint tests) --------------

# Classic rules, draw 1, one pass. The opening can be won, but KS-t2 (the king onto the
# ace of hearts) spoils it for good; found with the solver, which proves both quickly.
SPOIL_RULES = {"preset": "classic", "draw": 1, "passes": 1}
SPOIL_DECK = [
    "9H", "TH", "4S", "4H", "4D", "4C", "3S", "3H", "3D", "3C", "2S", "2H", "2D", "AC",
    "KS", "AH", "AS", "2C", "5H", "5S", "6C", "8D", "6H", "6S", "7C", "7D", "7H", "7S",
    "8C", "6D", "8H", "8S", "9C", "9D", "TS", "9S", "TC", "TD", "5C", "KH", "JC", "JD",
    "JH", "JS", "QC", "QD", "QH", "QS", "KC", "KD", "5D", "AD",
]  # fmt: skip
SPOIL = "KS-t2"


# -- processes and databases ----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def database_named(url: str, name: str) -> str:
    return url.rsplit("/", 1)[0] + "/" + name


@dataclass
class Databases:
    """Makes fresh databases of one kind for a test, and drops them afterwards."""

    kind: str
    tmp: Path
    server: str | None
    made: list[str] = field(default_factory=list)

    def new(self, *, migrated: bool = True) -> str:
        """A new empty database's URL; `migrated` ones already have the schema."""
        if self.server is None:
            return f"sqlite:///{self.tmp / f'db-{len(self.made)}.sqlite'}"
        name = f"test_{uuid.uuid4().hex[:12]}"
        template = TEMPLATE_DB if migrated else "template0"
        admin = create_engine(self.server, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name} TEMPLATE {template}"))
        admin.dispose()
        self.made.append(name)
        return database_named(self.server, name)

    def drop_all(self) -> None:
        if self.server is None or not self.made:
            return
        admin = create_engine(self.server, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            for name in self.made:
                connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@dataclass
class ServerProcess:
    """A real `canfield serve` process on 127.0.0.1 (start, kill, start again)."""

    database_url: str
    data_dir: Path
    workers: int = 1
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return self.data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "CANFIELD_DATA_DIR": str(self.data_dir),
            "CANFIELD_WORKERS": str(self.workers),
            "PYTHONUNBUFFERED": "1",
        }
        env.pop("SECRET_KEY", None)  # the key is made once and kept in the data folder
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # Its log (one access-log line a request) goes to a file: a pipe nobody reads
        # would fill up and stop the server.
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("server did not answer /healthz in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing; what was committed must survive."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Clock:
    """A clock the test moves by hand (the store's `clock`)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def seed_summaries(seed: str, first_words: str) -> list[str]:
    """The summary lines of a seed file (`000`: Polish, `002`: Hebrew) in ../shared/seeds:
    the opening of the §9 game and the position after its three moves, in that order."""
    seeds = ROOT.parent / "shared" / "seeds"
    (path,) = seeds.glob(f"{seed}_*.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.startswith(first_words)]
