"""Fixtures: a whole deployment (nginx, app servers, PostgreSQL) started by scripts/cluster."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .running import Cluster, start


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three app servers, started together on an empty database, behind nginx."""
    running = start(tmp_path_factory.mktemp("cluster"), 3)
    try:
        yield running
    finally:
        running.cluster("down")


@pytest.fixture
def start_cluster(tmp_path: Path) -> Iterator[Callable[[int], Cluster]]:
    """A cluster of the test's own (one the test may break); stopped at the end."""
    started: list[Cluster] = []

    def make(apps: int) -> Cluster:
        started.append(start(tmp_path / f"cluster-{len(started)}", apps))
        return started[-1]

    yield make
    for running in started:
        running.cluster("down")
