"""Fast assets: static files are named by content hash and kept for a year (immutable), so
a repeat visit fetches none of them again; text answers are gzip-compressed."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from tests.shared import SEED_CODE

from .board_helpers import game_id, open_deal

STATIC = re.compile(r'(?:href|src)="(/static/[^"?]+)\?v=([0-9a-f]{12})"')


def _static_fetches(page: Page, url: str) -> list[dict[str, Any]]:
    """Open `url`; the static files the browser fetched over the network (not its cache)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cached: set[str] = set()
    responses: list[dict[str, Any]] = []
    cdp.on("Network.requestServedFromCache", lambda event: cached.add(event["requestId"]))
    cdp.on("Network.responseReceived", lambda event: responses.append(event))
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # the favicon comes after the load event
    cdp.detach()
    return [
        event["response"]
        for event in responses
        if "/static/" in event["response"]["url"]
        and event["requestId"] not in cached
        and not event["response"].get("fromDiskCache")
        and not event["response"].get("fromMemoryCache")
    ]


def test_a_first_visit_fetches_each_file_once_and_a_repeat_visit_none(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(base_url=base_url)
    try:
        page = context.new_page()
        fetched = _static_fetches(page, f"/deal/{SEED_CODE}")
        names = sorted(r["url"].split("/static/")[1].split("?")[0] for r in fetched)
        assert names == [
            "board.css", "board.js", "favicon.svg", "levels.js", "results.css",
            "vendor/htmx.min.js",
        ]
        for response in fetched:
            headers = {k.lower(): v for k, v in response["headers"].items()}
            assert headers["cache-control"] == "public, max-age=31536000, immutable"
            if not response["url"].split("?")[0].endswith(".svg"):
                assert headers.get("content-encoding") == "gzip", response["url"]
        # Coming back (a new tab, the same browser): every static file from the cache.
        again = _static_fetches(context.new_page(), f"/games/{game_id(page)}")
        assert again == [], [r["url"] for r in again]
    finally:
        context.close()


def test_static_addresses_carry_the_content_hash(page: Page, base_url: str) -> None:
    gid = open_deal(page, SEED_CODE)
    with httpx.Client(base_url=base_url, cookies=_cookies(page)) as client:
        board = client.get(f"/games/{gid}", headers={"Accept-Encoding": "gzip"})
        assert board.headers["content-encoding"] == "gzip"  # the page itself
        assert board.headers["cache-control"] == "no-store"
        found = STATIC.findall(board.text)
        assert {path for path, _ in found} >= {
            "/static/board.css", "/static/board.js", "/static/vendor/htmx.min.js"
        }  # fmt: skip
        for path, version in found:
            fresh = client.get(f"{path}?v={version}", headers={"Accept-Encoding": "identity"})
            assert fresh.status_code == 200
            assert fresh.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert "content-encoding" not in fresh.headers  # only when the client asks
            # Another version (an old page, a hand-made link) is checked again each time.
            for other in (path, f"{path}?v=000000000000"):
                assert client.get(other).headers["cache-control"] == "no-cache"


def _cookies(page: Page) -> dict[str, str]:
    return {c["name"]: c["value"] for c in page.context.cookies()}
