"""A running cluster for the tests, started by `scripts/cluster` as a site would start it:
Debian's PostgreSQL, N app servers and nginx in front of them.

`Cluster.client()` talks through the proxy; `Cluster.client(app=2)` to app server 2
directly (a player pinned to one server), and `cookies=` shares one player's cookie
between clients. A test of something that must hold across servers (the computer
player's per-player fairness, say) takes `cluster` and sends one player's requests to
`client(app=1)` and `client(app=2)` at once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "cluster"
# The proxy's slow-client timeouts in the tests (10 s in a real deployment).
CLIENT_TIMEOUT = 2.0
UPSTREAM = "x-canfield-upstream"


@dataclass
class Cluster:
    """A running cluster: its proxy's base URL and what scripts/cluster keeps in cluster.json."""

    dir: Path
    url: str

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = json.loads((self.dir / "cluster.json").read_text())
        return state

    @property
    def apps(self) -> list[dict[str, Any]]:
        apps: list[dict[str, Any]] = self.state["apps"]
        return apps

    def address(self, app: int) -> str:
        """How the proxy names app server `app` (1-based) in X-Canfield-Upstream."""
        return f"127.0.0.1:{self.apps[app - 1]['port']}"

    def client(self, app: int | None = None, cookies: httpx.Cookies | None = None) -> httpx.Client:
        base = self.url if app is None else self.apps[app - 1]["url"]
        return httpx.Client(base_url=base, cookies=cookies, timeout=30.0)

    def kill(self, app: int) -> None:
        """SIGKILL app server `app`: no shutdown, no goodbye to the proxy or the database."""
        os.kill(self.apps[app - 1]["pid"], signal.SIGKILL)

    def sql(self, query: str, *params: object) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.state["database_url"]) as connection:
            return connection.execute(query, params).fetchall()  # type: ignore[arg-type]

    def cluster(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, str(SCRIPT), *args, "--dir", str(self.dir)],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout


def start(directory: Path, apps: int, *extra: str) -> Cluster:
    """`scripts/cluster up`: its last line is the proxy's base URL."""
    cluster = Cluster(directory, "")
    began = time.monotonic()
    output = cluster.cluster("up", "--apps", str(apps), "--client-timeout",
                             f"{CLIENT_TIMEOUT:g}s", *extra)
    cluster.url = output.strip().splitlines()[-1]
    assert cluster.url.startswith("http://127.0.0.1:"), output
    assert time.monotonic() - began < 120
    return cluster
