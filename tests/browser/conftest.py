"""Browser fixtures: a real `canfield serve` on 127.0.0.1, Debian's Chromium, screenshots."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .board_helpers import DESKTOP, PHONE

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """The app under test: `canfield serve` on a free port over a temp SQLite file.

    CANFIELD_BASE_URL points the suite at a server that is already running instead.
    """
    given = os.environ.get("CANFIELD_BASE_URL")
    if given:
        yield given.rstrip("/")
        return
    folder = Path(tempfile.mkdtemp(prefix="canfield-browser-"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'games.sqlite'}",
        "CANFIELD_DATA_DIR": str(folder / "data"),
        "PYTHONUNBUFFERED": "1",
        # The suite deals and asks hints from one address faster than any player: the rate
        # limits (tested in tests/web/test_fairness.py) are raised for it.
        "CANFIELD_GAMES_PER_PLAYER": "100000/minute",
        "CANFIELD_GAMES_PER_ADDRESS": "100000/minute",
        "CANFIELD_SEARCHES_PER_PLAYER": "100000/minute",
        "CANFIELD_SEARCHES_PER_ADDRESS": "100000/minute",
    }
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited: {(folder / 'server.log').read_text()}")
            try:
                if httpx.get(url + "/healthz", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not answer /healthz in 30 s")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium with the flags a container needs."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": DESKTOP}


@pytest.fixture
def shot() -> Callable[[Page, str], None]:
    """Save a screenshot into screenshots/ (git-ignored) for a person to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page: Page, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    return take


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def sized(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    """A page at phone and at desktop size, measured at rest (no gliding cards)."""
    context = browser.new_context(
        base_url=base_url, viewport=request.param, reduced_motion="reduce"
    )
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Page]:
    """A 360×640 touch phone."""
    context = browser.new_context(
        base_url=base_url, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    yield context.new_page()
    context.close()
