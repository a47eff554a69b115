"""Shared fixtures: a PostgreSQL server the suite starts itself, databases, the app and
clients, and a real `canfield serve` process (their classes are in tests/shared.py)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.store.db import make_engine, migrate
from app.web.settings import Settings
from tests.shared import (
    DATABASES,
    TEMPLATE_DB,
    Databases,
    ServerProcess,
    database_named,
    free_port,
)


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        raise RuntimeError(
            "PostgreSQL server binaries not found under /usr/lib/postgresql "
            "(`make system-deps` installs them)"
        )
    return Path(found[-1]).parent


def _run(command: list[str]) -> None:
    """Run a PostgreSQL tool; on failure, say what it printed."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{command[-1]} failed: {result.stdout}{result.stderr}")


def _as_postgres(*command: str) -> list[str]:
    # initdb refuses to run as root: run the server as the postgres user then.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return list(command)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`make test` runs `--dist loadgroup`) every test of the
    session-wide cluster (tests/cluster/conftest.py) goes to one worker, so that one
    cluster is started for them all rather than one a worker."""
    for item in items:
        if "cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("cluster"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on 127.0.0.1 and a free port; yields its admin URL."""
    bin_dir = _pg_bin()
    base = Path(tempfile.mkdtemp(prefix="canfield-pg-"))
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    port = free_port()
    _run(
        _as_postgres(
            str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
            "-E", "UTF8", "--no-locale", "--no-sync",
        )
    )
    # fsync off: a test cluster thrown away at the end needs no durability.
    options = f"-h 127.0.0.1 -p {port} -k {base} -F -c max_connections=200"
    _run(
        _as_postgres(
            str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options,
            "-l", str(base / "server.log"), "-w", "-t", "60", "start",
        )
    )
    url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    try:
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {TEMPLATE_DB}"))
        admin.dispose()
        template = make_engine(database_named(url, TEMPLATE_DB))
        migrate(template)
        template.dispose()
        yield url
    finally:
        subprocess.run(
            _as_postgres(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"),
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)






@pytest.fixture(params=DATABASES)
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Databases]:
    """Fresh databases of each kind: the test runs once on SQLite, once on PostgreSQL."""
    kind: str = request.param
    server = request.getfixturevalue("postgres_server") if kind == "postgresql" else None
    made = Databases(kind, tmp_path, server)
    yield made
    made.drop_all()


@pytest.fixture
def database_url(databases: Databases) -> str:
    return databases.new()


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    # Fuzzing tests deal hundreds of games a minute, as a script would: the rate limits
    # are raised here, and tests/web/test_fairness.py checks them with its own.
    return Settings(
        database_url=database_url,
        data_dir=tmp_path / "data",
        secret_key="test-secret-key",
        games_per_player="100000/minute",
        games_per_address="100000/minute",
        searches_per_player="100000/minute",
        searches_per_address="100000/minute",
    )


@pytest.fixture
def app(settings: Settings) -> Iterator[FastAPI]:
    from app.web.app import create_app  # loaded here so engine-only runs never import the web

    application = create_app(settings)
    yield application
    application.state.store.close()


@pytest.fixture
def workers_end(app: FastAPI) -> Iterator[None]:
    """The app's solver workers end with the test (the app's lifespan may not have run)."""
    yield
    computer = getattr(app.state, "computer", None)
    if computer is not None:
        computer.shutdown()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A browser-less player with its own cookie jar."""
    with TestClient(app, base_url="http://testserver") as test_client:
        yield test_client


@pytest.fixture
def make_client(app: FastAPI) -> Iterator[Callable[[], TestClient]]:
    """More players on the same app, each with its own cookies."""
    clients: list[TestClient] = []

    def make() -> TestClient:
        test_client = TestClient(app, base_url="http://testserver")
        test_client.__enter__()
        clients.append(test_client)
        return test_client

    yield make
    for test_client in clients:
        test_client.__exit__(None, None, None)




@pytest.fixture
def server_process(databases: Databases, tmp_path: Path) -> Iterator[ServerProcess]:
    """A real server process over a fresh database of each kind (not yet started)."""
    server = ServerProcess(databases.new(), tmp_path / "server-data")
    yield server
    server.stop()
